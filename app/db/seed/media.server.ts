import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Storage } from "../../integrations/storage/storage";
import { peaksOf, waveformSvg, wavSamples } from "../../market/catalog/waveform";
import { EVENT_IMAGES, encodePng, eventImagePng } from "./event-images";
import { createRandom } from "./random";
import { drawScene, POSTER_AT, SCENE_FPS, SCENE_HEIGHT, SCENE_WIDTH, SCENES, type SceneName, sceneCodeHash, sceneFrames } from "./scenes";

/**
 * Writes the demo catalog's media: SVG icons, banners and package covers, a drawn scene per video subject (a PNG
 * poster, and with ffmpeg a 4-second looping MP4 clip), PNG event pictures, synthesized WAV audio with its waveform
 * (peaks.json and the SVG picture cards show), and real OFL fonts copied from npm packages. Previews go to `<dataDir>/media` (public, served at
 * /media); originals go to `<dataDir>/storage` (private, leave only through signed download links).
 */
export const ICON_COUNT = 24;
export const POSTER_COUNT = 16;
export const BANNER_COUNT = 8;
export const BGM_COUNT = 6;
export const SE_COUNT = 6;

/** True when ffmpeg can be run: the demo video items then get short playable clips besides posters. */
export function hasFfmpeg(): boolean {
  return spawnSync("ffmpeg", ["-version"], { stdio: "ignore" }).status === 0;
}

const CLIP_ARGS = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "28", "-an", "-movflags", "+faststart"];

/** A scene's loop as a 640x360 H.264 MP4 without sound (faststart, so a browser plays it as it arrives). */
function renderClip(scene: SceneName, file: string): Promise<void> {
  const args = ["-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24"];
  args.push("-s", `${SCENE_WIDTH}x${SCENE_HEIGHT}`, "-r", String(SCENE_FPS), "-i", "pipe:0", "-vf", "format=yuv420p");
  args.push(...CLIP_ARGS, `${file}.part.mp4`);
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", args, { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg: ${stderr.trim() || `exit ${code}`}`));
      fs.renameSync(`${file}.part.mp4`, file);
      resolve();
    });
    // Frames are written as ffmpeg takes them (backpressure), so at most a few are held in memory.
    const frames = sceneFrames(scene);
    const pump = () => {
      for (let next = frames.next(); !next.done; next = frames.next()) {
        if (!child.stdin.write(Buffer.from(next.value))) return void child.stdin.once("drain", pump);
      }
      child.stdin.end();
    };
    child.stdin.on("error", () => {});
    pump();
  });
}

export const FONTS = [
  {
    pkg: "@expo-google-fonts/black-han-sans",
    file: "400Regular/BlackHanSans_400Regular.ttf",
    family: "Black Han Sans",
    ko: "검은고딕",
    hangul: true,
    cate: "display",
  },
  {
    pkg: "@expo-google-fonts/do-hyeon",
    file: "400Regular/DoHyeon_400Regular.ttf",
    family: "Do Hyeon",
    ko: "도현체",
    hangul: true,
    cate: "sans",
  },
  { pkg: "@expo-google-fonts/jua", file: "400Regular/Jua_400Regular.ttf", family: "Jua", ko: "주아체", hangul: true, cate: "sans" },
  {
    pkg: "@expo-google-fonts/gowun-dodum",
    file: "400Regular/GowunDodum_400Regular.ttf",
    family: "Gowun Dodum",
    ko: "고운돋움",
    hangul: true,
    cate: "sans",
  },
  {
    pkg: "@expo-google-fonts/nanum-pen-script",
    file: "400Regular/NanumPenScript_400Regular.ttf",
    family: "Nanum Pen Script",
    ko: "나눔손글씨 펜",
    hangul: true,
    cate: "handwriting",
  },
  {
    pkg: "@expo-google-fonts/lobster",
    file: "400Regular/Lobster_400Regular.ttf",
    family: "Lobster",
    ko: "로브스터",
    hangul: false,
    cate: "display",
  },
  {
    pkg: "@expo-google-fonts/pacifico",
    file: "400Regular/Pacifico_400Regular.ttf",
    family: "Pacifico",
    ko: "파시피코",
    hangul: false,
    cate: "handwriting",
  },
] as const;

const PALETTES = [
  ["#0f766e", "#5eead4"],
  ["#1d4ed8", "#93c5fd"],
  ["#7c3aed", "#c4b5fd"],
  ["#b91c1c", "#fca5a5"],
  ["#c2410c", "#fdba74"],
  ["#15803d", "#86efac"],
  ["#0e7490", "#67e8f9"],
  ["#a21caf", "#f0abfc"],
];

const GLYPHS = [
  "M32 6l7.6 16.5L58 25l-13 12.6L48 56 32 47.3 16 56l3-18.4L6 25l18.4-2.5z", // star
  "M32 54S8 39 8 22a12 12 0 0 1 24-3 12 12 0 0 1 24 3c0 17-24 32-24 32z", // heart
  "M10 32h36M34 18l14 14-14 14", // arrow
  "M18 44h28a10 10 0 0 0 0-20 14 14 0 0 0-27-2 11 11 0 0 0-1 22z", // cloud
  "M32 14a18 18 0 1 0 0 36 18 18 0 0 0 0-36zM32 4v6M32 54v6M4 32h6M54 32h6", // sun
  "M40 8a24 24 0 1 0 16 40A20 20 0 0 1 40 8z", // moon
  "M24 48a7 7 0 1 1-7-7 7 7 0 0 1 7 7V14l26-6v32a7 7 0 1 1-7-7", // note
  "M8 20h12l5-7h14l5 7h12v32H8zM32 26a10 10 0 1 0 0 20 10 10 0 0 0 0-20z", // camera
  "M8 30L32 10l24 20M14 26v28h36V26", // home
  "M32 8a14 14 0 0 0-14 14v14l-6 8h40l-6-8V22A14 14 0 0 0 32 8zM26 50a6 6 0 0 0 12 0", // bell
  "M8 12h48v30H26l-12 10V42H8z", // chat
  "M12 34l12 12 28-28", // check
];

export function iconSvg(i: number): string {
  const [dark, light] = PALETTES[i % PALETTES.length];
  const glyph = GLYPHS[i % GLYPHS.length];
  const filled = i % 2 === 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="256" height="256"><rect width="64" height="64" rx="14" fill="${light}"/><path d="${glyph}" fill="${filled ? dark : "none"}" stroke="${dark}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>\n`;
}

export function posterSvg(i: number, width: number, height: number): string {
  const rnd = createRandom(1000 + i);
  const [dark, light] = PALETTES[i % PALETTES.length];
  const hills = Array.from({ length: 3 }, (_, k) => {
    const base = height * (0.55 + k * 0.12);
    const pts = Array.from({ length: 7 }, (_, j) => `${(j * width) / 6},${base - rnd.int(0, height / 5)}`);
    return `<polygon points="0,${height} ${pts.join(" ")} ${width},${height}" fill="${dark}" opacity="${0.35 + k * 0.25}"/>`;
  }).join("");
  const sun = `<circle cx="${rnd.int(width / 5, (width * 4) / 5)}" cy="${rnd.int(height / 6, height / 3)}" r="${height / 9}" fill="#fff7ed" opacity="0.9"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#g)"/>${sun}${hills}</svg>\n`;
}

/** 16-bit mono PCM WAV. */
function wav(samples: Float32Array, rate: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    data.writeInt16LE(Math.round(s * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const RATE = 22050;
const midi = (n: number) => 440 * 2 ** ((n - 69) / 12);

/** A short arpeggiated chord progression at a given tempo: a real, listenable background-music loop. */
export function synthBgm(i: number, bpm: number, seconds = 12): Buffer {
  const rnd = createRandom(2000 + i);
  const roots = [57, 60, 62, 64, 65, 67];
  const progression = Array.from({ length: 4 }, () => rnd.pick(roots));
  const minor = i % 2 === 1;
  const out = new Float32Array(RATE * seconds);
  const beat = 60 / bpm;
  const step = beat / 2;
  for (let n = 0; n * step < seconds; n++) {
    const bar = Math.floor((n * step) / (beat * 4)) % progression.length;
    const chord = [0, minor ? 3 : 4, 7, 12].map((x) => progression[bar] + x);
    const freq = midi(chord[n % chord.length]);
    const start = Math.floor(n * step * RATE);
    const len = Math.floor(step * RATE * 1.8);
    for (let k = 0; k < len && start + k < out.length; k++) {
      const t = k / RATE;
      const env = Math.exp(-t * 3.5) * Math.min(1, k / 200);
      out[start + k] += 0.22 * env * (Math.sin(2 * Math.PI * freq * t) + 0.3 * Math.sin(4 * Math.PI * freq * t));
    }
    if (n % 4 === 0) {
      const bass = midi(progression[bar] - 12);
      for (let k = 0; k < len * 2 && start + k < out.length; k++) {
        const t = k / RATE;
        out[start + k] += 0.18 * Math.exp(-t * 1.5) * Math.sin(2 * Math.PI * bass * t);
      }
    }
  }
  return wav(out, RATE);
}

/** A short sound effect: a rising or falling sweep, a chime, or a filtered noise whoosh. */
export function synthSe(i: number): Buffer {
  const rnd = createRandom(3000 + i);
  const seconds = 1 + (i % 3) * 0.5;
  const out = new Float32Array(Math.floor(RATE * seconds));
  let phase = 0;
  let noise = 0;
  for (let k = 0; k < out.length; k++) {
    const t = k / RATE;
    const p = t / seconds;
    const env = Math.sin(Math.PI * p) ** 2;
    if (i % 3 === 0) {
      const f = 300 + (i % 2 ? 1 - p : p) * 1500;
      phase += (2 * Math.PI * f) / RATE;
      out[k] = 0.4 * env * Math.sin(phase);
    } else if (i % 3 === 1) {
      out[k] = 0.35 * Math.exp(-t * 4) * (Math.sin(2 * Math.PI * 880 * t) + 0.5 * Math.sin(2 * Math.PI * 1320 * t));
    } else {
      noise = 0.92 * noise + 0.08 * (rnd.next() * 2 - 1);
      out[k] = 2.2 * env * noise;
    }
  }
  return wav(out, RATE);
}

function write(file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** The events' PNG pictures (media/events), each drawn when it is missing, so older data folders get them too. */
function writeEventImages(media: string): void {
  EVENT_IMAGES.forEach((image, i) => {
    const file = path.join(media, "events", image.file);
    if (!fs.existsSync(file)) write(file, eventImagePng(i));
  });
}

/**
 * Where encoded clips are kept for other data folders on this machine (tests and the e2e server seed a fresh
 * folder each run): a folder under `base` (MEDIA_CACHE_DIR, else the system's temporary directory) named after a
 * hash of the scenes' drawing code and the encoder settings, so a changed scene is encoded again. Null (no cache)
 * when `base` is "off".
 */
function clipCacheDir(base = path.join(os.tmpdir(), "asset-market-media")): string | null {
  if (base === "off") return null;
  const key = createHash("sha256")
    .update(`${sceneCodeHash()}\n${CLIP_ARGS.join(" ")}`)
    .digest("hex");
  return path.join(base, `clips-${key.slice(0, 16)}`);
}

function keepInCache(file: string, cached: string): void {
  try {
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    // Copied under a temporary name and renamed: a process reading the cache never sees half a clip.
    const part = `${cached}.${process.pid}.part`;
    fs.copyFileSync(file, part);
    fs.renameSync(part, cached);
  } catch {
    // A cache that cannot be written only costs the next seed the encoding.
  }
}

/** The demo audio files: background music and sound effects, synthesized. */
export const AUDIO_FILES = [
  ...Array.from({ length: BGM_COUNT }, (_, i) => ({ name: `bgm-${i}`, accent: "music" as const, make: () => synthBgm(i, 70 + i * 12) })),
  ...Array.from({ length: SE_COUNT }, (_, i) => ({ name: `se-${i}`, accent: "effect" as const, make: () => synthSe(i) })),
];

/** A scene's poster: its frame at POSTER_AT seconds, as PNG (drawn in JavaScript, so it needs no ffmpeg). */
export function scenePosterPng(scene: SceneName): Buffer {
  const frame = drawScene(scene, POSTER_AT);
  return encodePng(frame.width, frame.height, frame.px);
}

/** The addresses the seed gives a video item of `scene`: its poster, and its clip when clips were made. */
export function sceneMedia(scene: SceneName, clips: boolean) {
  return {
    poster_path: `/media/scenes/${scene}.png`,
    preview_path: clips ? `/media/clips/${scene}.mp4` : null,
    file_path: clips ? `videos/${scene}.mp4` : `videos/${scene}.png`,
  };
}

/** The addresses of a demo audio file: the WAV preview, its waveform picture (the card's poster) and its peaks. */
export function audioMedia(name: string) {
  return { preview_path: `/media/audio/${name}.wav`, poster_path: `/media/audio/${name}.waveform.svg`, file_path: `audio/${name}.wav` };
}

/**
 * Creates the media pool once per data folder (a marker file says it is complete). Paths are conventional; the
 * answer says whether the video clips exist (they need ffmpeg), so the seed points video previews at them, and
 * how long the pool took (0 when it was already there).
 */
export async function writeMediaPool(
  dataDir: string,
  log: (line: string) => void = () => {},
  cacheDir?: string,
): Promise<{ clips: boolean; ms: number }> {
  const media = path.join(dataDir, "media");
  const storage = path.join(dataDir, "storage");
  const marker = path.join(media, ".complete-v3");
  const clipsExist = () => SCENES.every((scene) => fs.existsSync(path.join(media, "clips", `${scene}.mp4`)));
  writeEventImages(media);
  if (fs.existsSync(marker)) return { clips: clipsExist(), ms: 0 };
  const t0 = Date.now();
  for (let i = 0; i < ICON_COUNT; i++) {
    write(path.join(media, "icons", `icon-${i}.svg`), iconSvg(i));
    write(path.join(storage, "icons", `icon-${i}.svg`), iconSvg(i));
  }
  for (let i = 0; i < POSTER_COUNT; i++) {
    write(path.join(media, "posters", `poster-${i}.svg`), posterSvg(i, 640, 360));
  }
  for (let i = 0; i < BANNER_COUNT; i++) {
    write(path.join(media, "banners", `banner-${i}.svg`), posterSvg(100 + i, 1200, 360));
  }
  for (const audio of AUDIO_FILES) {
    const wav = audio.make();
    const samples = wavSamples(wav) ?? new Int16Array(0);
    const peaks = peaksOf(samples);
    write(path.join(media, "audio", `${audio.name}.wav`), wav);
    write(path.join(storage, "audio", `${audio.name}.wav`), wav);
    write(
      path.join(media, "audio", `${audio.name}.peaks.json`),
      JSON.stringify({ version: 1, sampleRate: RATE, length: samples.length, peaks }),
    );
    write(path.join(media, "audio", `${audio.name}.waveform.svg`), waveformSvg(peaks, audio.accent));
  }
  const require = createRequire(import.meta.url);
  FONTS.forEach((font, i) => {
    const src = require.resolve(`${font.pkg}/${font.file}`);
    // Fonts are the product itself: only the original goes to private storage; previews are subsets.
    fs.mkdirSync(path.join(storage, "fonts"), { recursive: true });
    fs.copyFileSync(src, path.join(storage, "fonts", `font-${i}.ttf`));
  });
  for (const scene of SCENES) {
    const poster = scenePosterPng(scene);
    write(path.join(media, "scenes", `${scene}.png`), poster);
    write(path.join(storage, "videos", `${scene}.png`), poster);
  }
  if (hasFfmpeg()) {
    fs.mkdirSync(path.join(media, "clips"), { recursive: true });
    const cache = clipCacheDir(cacheDir);
    // Two at a time: drawing the frames (here) and encoding them (ffmpeg) overlap.
    for (let i = 0; i < SCENES.length; i += 2) {
      await Promise.all(
        SCENES.slice(i, i + 2).map(async (scene) => {
          const file = path.join(media, "clips", `${scene}.mp4`);
          const cached = cache ? path.join(cache, `${scene}.mp4`) : null;
          if (cached && fs.existsSync(cached)) fs.copyFileSync(cached, file);
          else {
            await renderClip(scene, file);
            if (cached) keepInCache(file, cached);
          }
          fs.copyFileSync(file, path.join(storage, "videos", `${scene}.mp4`));
        }),
      );
    }
  } else {
    log("ffmpeg not found: video items get drawn posters but no preview clips (scripts/ensure-system.sh installs ffmpeg)");
  }
  write(marker, new Date().toISOString());
  const ms = Date.now() - t0;
  log(`demo media written in ${ms} ms${clipsExist() ? ` (${SCENES.length} video clips)` : ""}`);
  return { clips: clipsExist(), ms };
}

/** The pool's folders below DATA_DIR: the public previews and the private originals the demo catalog names. */
const POOL_FOLDERS = ["media/icons", "media/posters", "media/banners", "media/audio", "media/clips", "media/scenes", "media/events"].concat(
  ["storage/icons", "storage/videos", "storage/audio", "storage/fonts"],
);

/**
 * Copies the media pool written under `dataDir` into an object store (STORAGE_URL), once: the store's own marker
 * says it is there, so the servers sharing a bucket upload it once between them (a race uploads the same bytes
 * twice, harmlessly). Answers how many files went up.
 */
export async function publishMediaPool(dataDir: string, storage: Storage): Promise<number> {
  const marker = "media/.complete-v3";
  if (await storage.stat(marker)) return 0;
  let sent = 0;
  for (const folder of POOL_FOLDERS) {
    const dir = path.join(dataDir, folder);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (!fs.statSync(file).isFile()) continue;
      await storage.put(`${folder}/${name}`, fs.createReadStream(file));
      sent++;
    }
  }
  await storage.put(marker, new TextEncoder().encode(new Date().toISOString()));
  return sent;
}
