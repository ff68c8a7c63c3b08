import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { queueMediaJob, runMediaJobs } from "../../app/market/catalog/media-jobs.server";
import { MEDIA_LIMITS } from "../../app/market/catalog/media-limits";
import { runTool, ToolFailure, toolInput } from "../../app/market/catalog/media-tools.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import {
  behindId3,
  ffmpegMake,
  mp3ClaimingFrames,
  mp4WithExternalData,
  mp4WithReferenceMovie,
  mp4WithSize,
  pngClaiming,
  referenceCorpus,
  wavOf,
} from "../support/hostile-media";
import { signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const MESSAGES = {
  reference: {
    en: "This file refers to other files or addresses (a playlist, a concat or SDP script, or an external data reference), so it was not read.",
    ko: "이 파일은 다른 파일이나 주소를 가리킵니다",
  },
  damaged: "This file's contents do not match its format",
  audio: "Audio may be at most 15 minutes long, sampled at 8,000 to 192,000 Hz, with at most 8 channels.",
  video: "Video may be at most 10 minutes and 36,000 frames long, and at most 4,096 pixels wide or high",
  picture: "A picture may be at most 4,096 × 4,096 pixels.",
};

/** What ffprobe says of a stored preview. */
function probe(file: string) {
  const out = JSON.parse(
    execFileSync("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=duration:stream=avg_frame_rate,codec_type",
      "-of",
      "json",
      file,
    ]).toString(),
  ) as { format: { duration: string }; streams: { codec_type: string; avg_frame_rate: string }[] };
  const [n, d] = (out.streams.find((s) => s.codec_type === "video")?.avg_frame_rate ?? "0/1").split("/").map(Number);
  return { seconds: Number(out.format.duration), fps: d ? n / d : 0 };
}

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/** Live array-buffer memory (where decoded audio would sit): what is left after a full collection. */
const liveBuffers = () => {
  gc();
  return process.memoryUsage().arrayBuffers;
};

/**
 * Samples the live array-buffer memory while `work` runs (every 100 ms, after a full collection, so chunks already
 * let go of do not count); answers the largest growth.
 */
async function bufferGrowth<T>(work: () => Promise<T>) {
  const before = liveBuffers();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, liveBuffers());
  }, 100);
  try {
    const result = await work();
    return { result, growth: peak - before, after: liveBuffers() - before };
  } finally {
    clearInterval(timer);
  }
}

/**
 * What decodes and encodes media without asking the database anything new (ffmpeg's runs, previews, the stream
 * decode) runs once, on SQLite: on PostgreSQL it would repeat the same ffmpeg work (a third of this file's time)
 * for no query of its own; the jobs' rows on PostgreSQL are covered by the tests that stay and by admin-catalog.
 */
const mediaOnly = it.skipIf(ENGINE === "postgres");

describe(`hostile media uploads on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let dataDir: string;
  let work: string;
  let secret: string;
  let secretMp3: Uint8Array;
  let cookie: string;
  const ip = "198.51.100.171";

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop } = t);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-media-"));
    work = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-corpus-"));
    call = await createTestApp(db, { dataDir });
    cookie = `${await signInOperator(call, "catalog", ip)}; lng=en`;
    // The server's secret: 7.3 s of a 1234 Hz tone, somewhere on the server's disk.
    secretMp3 = ffmpegMake(work, "secret.mp3", ["-f", "lavfi", "-i", "sine=frequency=1234:duration=7.3", "-b:a", "64k"]);
    secret = path.join(work, "secret.mp3");
  });
  afterAll(async () => {
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  const sampleMp4 = () =>
    ffmpegMake(work, "sample.mp4", ["-f", "lavfi", "-i", "testsrc=s=320x240:d=2:r=12", "-c:v", "libx264", "-pix_fmt", "yuv420p"]);
  const fields = (type: string, title: string) => ({
    type,
    titleKo: `${title} 한국어`,
    titleEn: title,
    descriptionKo: "업로드 테스트",
    descriptionEn: "Uploaded in a test",
    tagsKo: "테스트",
    tagsEn: "test",
    priceType: "paid",
    priceKrw: "5000",
    priceUsd: "399",
  });
  const upload = (type: string, title: string, file: Uint8Array, name: string, lang: "en" | "ko" = "en") => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields(type, title))) body.append(k, v);
    body.append("file", new File([file as BlobPart], name, { type: "application/octet-stream" }));
    return call("/admin/catalog/new", {
      method: "POST",
      headers: { "accept-language": lang, cookie: cookie.replace("lng=en", `lng=${lang}`) },
      body,
      ip,
    });
  };
  const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");
  const created = async (res: Response) => {
    expect(res.status, (await res.clone().text()).slice(0, 300)).toBe(302);
    const id = Number(/\/admin\/catalog\/(\d+)$/.exec(res.headers.get("location") ?? "")?.[1]);
    return db.selectFrom("contents").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  };
  const count = async () =>
    Number(
      (
        await db
          .selectFrom("contents")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const storedUploads = () => {
    const dir = path.join(dataDir, "storage", "uploads");
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const previewsOf = (code: string) => {
    const dir = path.join(dataDir, "media", "uploads", code);
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const jobOf = (id: number) =>
    db.selectFrom("media_jobs").selectAll().where("content_id", "=", id).orderBy("id", "desc").executeTakeFirstOrThrow();
  /** A stored original swapped for `bytes` (a file stored before these checks, or put there by other means), its previews queued again. */
  const storedAs = async (item: { id: number; contents_type: string; file_path: string | null }, bytes: Uint8Array) => {
    fs.writeFileSync(path.join(dataDir, "storage", item.file_path as string), bytes);
    await queueMediaJob(db, item.id, item.contents_type as "audio", item.file_path as string);
  };
  /** Every byte published under /media contains no run of the secret's bytes. */
  const publishedHoldsSecret = () => {
    const probeBytes = Buffer.from(secretMp3.subarray(secretMp3.length / 2, secretMp3.length / 2 + 64));
    const media = path.join(dataDir, "media");
    if (!fs.existsSync(media)) return false;
    const files = fs.readdirSync(media, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    return files.some((f) => fs.readFileSync(path.join(f.parentPath, f.name)).includes(probeBytes));
  };

  it("refuses every upload that names other inputs, in the operator's language, before anything decodes it", async () => {
    const before = await count();
    const mp4 = sampleMp4();
    const corpus = [
      ...referenceCorpus(secret),
      { name: "MP4 whose data reference is another file", bytes: mp4WithExternalData(mp4, `file://${secret}`), as: "video" as const },
      { name: "MP4 holding a reference movie", bytes: mp4WithReferenceMovie(mp4, `file://${secret}`), as: "video" as const },
    ];
    for (const { name, bytes, as } of corpus) {
      const res = await upload(as, `Hostile ${name}`, bytes, as === "video" ? "clip.mp4" : "song.mp3");
      expect(res.status, name).toBe(400);
      const page = await html(res);
      expect(page, name).toContain(MESSAGES.reference.en);
      expect(page, name).toContain(`value="Hostile ${name}"`);
    }
    const ko = await upload("audio", "Hostile in Korean", referenceCorpus(secret)[0].bytes, "song.mp3", "ko");
    expect(ko.status).toBe(400);
    expect(await html(ko)).toContain(MESSAGES.reference.ko);
    expect(await count()).toBe(before);
    expect(storedUploads()).toEqual([]);
    expect(publishedHoldsSecret()).toBe(false);
  });

  it("refuses uploads whose headers ask for more decoding than each kind's caps, or that are not what they claim", async () => {
    const before = await count();
    const cases: [string, string, Uint8Array, string, string][] = [
      // The reported file: 1 MB of WAV at 100 Hz (87 minutes).
      ["audio", "A WAV at 100 Hz", wavOf(100, 524_000), "tiny-rate.wav", MESSAGES.audio],
      ["audio", "A WAV of 16 minutes", wavOf(8_000, 16 * 60 * 8_000), "long.wav", MESSAGES.audio],
      ["audio", "A WAV claiming 2 GB", wavOf(8_000, 8_000, 0x7fff_fff0), "liar.wav", MESSAGES.damaged],
      ["audio", "An ID3 tag over noise", behindId3("\x01\x02\x03\x04".repeat(500)), "noise.mp3", MESSAGES.damaged],
      ["icon", "A PNG of 100000 pixels a side", pngClaiming(100_000, 100_000), "huge.png", MESSAGES.picture],
      ["video", "An MP4 of 30000 pixels a side", mp4WithSize(sampleMp4(), 30_000, 30_000), "huge.mp4", MESSAGES.video],
    ];
    for (const [type, title, bytes, name, message] of cases) {
      const res = await upload(type, title, bytes, name);
      expect(res.status, title).toBe(400);
      expect(await html(res), title).toContain(message);
    }
    expect(await count()).toBe(before);
    expect(storedUploads()).toEqual([]);
  });

  it("fails the job of a stored file that names another input, with the same message, and publishes nothing of the secret", async () => {
    const audio = await created(await upload("audio", "Stored before the checks", wavOf(8_000, 8_000), "ok.wav"));
    const video = await created(await upload("video", "Stored video before the checks", sampleMp4(), "%03d.mp4"));
    // The upload's own name never reaches the tools (an image2 pattern stays a name).
    expect(video.file_path).toBe(`uploads/${video.code}.mp4`);
    expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 2, failed: 0 });
    fs.rmSync(path.join(dataDir, "media", "uploads", audio.code), { recursive: true });
    await db.updateTable("contents").set({ preview_path: null, poster_path: null, duration_ms: null }).where("id", "=", audio.id).execute();

    await storedAs(audio, referenceCorpus(secret)[0].bytes);
    await storedAs(video, mp4WithExternalData(sampleMp4(), `file://${secret}`));
    expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 0, failed: 2 });
    expect((await jobOf(audio.id)).error).toBe("fileReference");
    expect((await jobOf(video.id)).error).toBe("fileReference");
    expect(previewsOf(audio.code)).toEqual([]);
    const row = await db.selectFrom("contents").selectAll().where("id", "=", audio.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ preview_path: null, duration_ms: null });
    expect(publishedHoldsSecret()).toBe(false);
    const page = await html(await call(`/admin/catalog/${audio.id}`, { headers: { "accept-language": "en", cookie }, ip }));
    expect(page).toContain(`The previews could not be made: ${MESSAGES.reference.en}`);
  });

  mediaOnly("runs ffmpeg on one input of a forced format: a playlist behind an ID3 tag decodes nothing, and limits end a run", async () => {
    const scratch = fs.mkdtempSync(path.join(work, "scratch-"));
    fs.writeFileSync(path.join(scratch, "input"), referenceCorpus(secret)[0].bytes);
    let decoded = 0;
    const decode = (kind: "mp3" | "wav") => {
      const input = toolInput(kind, path.join(scratch, "input"));
      return runTool("ffmpeg", [...input.args, "-ac", "1", "-ar", "8000", "-f", "s16le", "pipe:1"], {
        cwd: scratch,
        stdin: input.stdin,
        onStdout: (chunk) => {
          decoded += chunk.length;
          return undefined;
        },
      });
    };
    await expect(decode("mp3")).rejects.toThrow();
    await expect(decode("wav")).rejects.toThrow();
    expect(decoded).toBe(0);
    // The same bytes, probed as ffmpeg would on its own, are the secret (what the forced format prevents).
    const probed = execFileSync("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=format_name",
      "-of",
      "csv=p=0",
      path.join(scratch, "input"),
    ]);
    expect(probed.toString().trim()).toBe("hls");

    const wav = path.join(scratch, "input.wav");
    fs.writeFileSync(wav, wavOf(48_000, 48_000 * 60));
    const input = toolInput("wav", wav);
    const args = [...input.args, "-f", "null", "-"];
    await expect(runTool("ffmpeg", args, { cwd: scratch, stdin: input.stdin, limits: { memoryMb: 24 } })).rejects.toMatchObject({
      overLimit: true,
    });
    await expect(
      runTool("ffmpeg", ["-re", ...args], { cwd: scratch, stdin: input.stdin, limits: { timeoutMs: 300 } }),
    ).rejects.toBeInstanceOf(ToolFailure);
    await expect(runTool("ffmpeg", args, { cwd: scratch, stdin: input.stdin })).resolves.toBe("");
  });

  it("refuses in the job a WAV at 100 Hz stored before the checks, without decoding it into the worker", async () => {
    const item = await created(await upload("audio", "Tiny rate stored", wavOf(8_000, 8_000), "ok.wav"));
    await runMediaJobs(db, createLocalStorage(dataDir));
    fs.rmSync(path.join(dataDir, "media", "uploads", item.code), { recursive: true });
    await storedAs(item, wavOf(100, 524_000));
    const { result, growth } = await bufferGrowth(() => runMediaJobs(db, createLocalStorage(dataDir)));
    expect(result).toEqual({ done: 0, failed: 1 });
    expect((await jobOf(item.id)).error).toBe("fileAudioLimits");
    expect(previewsOf(item.code)).toEqual([]);
    expect(growth).toBeLessThan(8 * 1024 * 1024);
  }, 60_000);

  it("stops decoding an MP3 whose header understates its length once it passes the cap", async () => {
    // 16 minutes at 8 kbit/s (under 1 MB), its Xing header saying 100 frames (7 s): the upload's check believes it.
    const long = ffmpegMake(work, "long.mp3", [
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=960:sample_rate=8000",
      "-ac",
      "1",
      "-b:a",
      "8k",
    ]);
    const liar = mp3ClaimingFrames(long, 100);
    const item = await created(await upload("audio", "Understated MP3", liar, "liar.mp3"));
    expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 0, failed: 1 });
    expect((await jobOf(item.id)).error).toBe("fileAudioLimits");
    expect(previewsOf(item.code)).toEqual([]);
  }, 60_000);

  mediaOnly(
    "decodes audio as a stream: live memory stays flat while 14 minutes decode, and returns after",
    async () => {
      const scratch = fs.mkdtempSync(path.join(work, "stream-"));
      const file = path.join(scratch, "input");
      fs.writeFileSync(file, wavOf(8_000, 14 * 60 * 8_000));
      // In a process of its own (tests/support/decode-memory.ts), read at 200 times its speed (about 4 s), so the
      // samples there see the decode in progress.
      const out = execFileSync(
        process.execPath,
        ["--expose-gc", "--import", "tsx", path.resolve("tests/support/decode-memory.ts"), file, "wav", String(14 * 60), "200"],
        { encoding: "utf8", timeout: 120_000 },
      );
      const result = JSON.parse(out) as { samples: number; window: number; growth: number; after: number };
      expect(result.samples).toBe(14 * 60 * 8_000);
      expect(result.window).toBe(MEDIA_LIMITS.audio.previewSeconds * MEDIA_LIMITS.audio.decodeRate);
      // Held whole, the decode would be 13 MB of samples (and as much again for each copy).
      expect(result.growth).toBeLessThan(4 * 1024 * 1024);
      expect(result.after).toBeLessThan(2 * 1024 * 1024);
    },
    180_000,
  );

  mediaOnly(
    "makes an audio preview of the first minute at most, with the waveform of that minute and the item's whole length",
    async () => {
      const minutes = 14;
      const item = await created(await upload("audio", "Fourteen minutes", wavOf(8_000, minutes * 60 * 8_000), "long.wav"));
      expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 1, failed: 0 });
      const row = await db.selectFrom("contents").selectAll().where("id", "=", item.id).executeTakeFirstOrThrow();
      expect(Math.abs((row.duration_ms ?? 0) - minutes * 60_000)).toBeLessThan(200);
      const dir = path.join(dataDir, "media", "uploads", item.code);
      const preview = path.join(dir, "preview.mp3");
      expect(probe(preview).seconds).toBeLessThanOrEqual(MEDIA_LIMITS.audio.previewSeconds + 0.1);
      expect(fs.statSync(preview).size).toBeLessThanOrEqual(MEDIA_LIMITS.audio.previewMaxBytes);
      const peaks = JSON.parse(fs.readFileSync(path.join(dir, "peaks.json"), "utf8"));
      expect(peaks.length / peaks.sampleRate).toBe(MEDIA_LIMITS.audio.previewSeconds);
      expect(peaks.peaks).toHaveLength(400);
    },
    60_000,
  );

  mediaOnly(
    "makes a video clip of the first 10 seconds at most, at most 30 frames a second",
    async () => {
      const clip = ffmpegMake(work, "fast.mp4", [
        "-f",
        "lavfi",
        "-i",
        "testsrc=s=320x240:d=20:r=60",
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-pix_fmt",
        "yuv420p",
      ]);
      const item = await created(await upload("video", "Twenty seconds at 60", clip, "fast.mp4"));
      expect(await runMediaJobs(db, createLocalStorage(dataDir))).toEqual({ done: 1, failed: 0 });
      const preview = path.join(dataDir, "media", "uploads", item.code, "preview.mp4");
      const p = probe(preview);
      expect(p.seconds).toBeLessThanOrEqual(MEDIA_LIMITS.video.previewSeconds + 0.1);
      expect(p.fps).toBeLessThanOrEqual(MEDIA_LIMITS.video.previewFps);
      expect(fs.statSync(preview).size).toBeLessThanOrEqual(MEDIA_LIMITS.video.previewMaxBytes);
      const row = await db.selectFrom("contents").selectAll().where("id", "=", item.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ width: 320, height: 240 });
      expect(Math.abs((row.duration_ms ?? 0) - 20_000)).toBeLessThan(200);
    },
    60_000,
  );
});
