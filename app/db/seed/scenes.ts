import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRandom } from "./random";

/**
 * The demo catalog's video scenes, drawn frame by frame in plain JavaScript (no ffmpeg needed to draw them):
 * one scene per video subject of the seed's vocabulary (ocean sunset, city at night, forest light...). A frame at
 * 1 s is the item's poster (a PNG, so a machine without ffmpeg still shows real pictures); with ffmpeg the frames
 * are encoded as a short H.264 clip that loops seamlessly (every motion has the clip's length as its period).
 */
export const SCENE_WIDTH = 640;
export const SCENE_HEIGHT = 360;
export const SCENE_FPS = 24;
export const SCENE_SECONDS = 4;
/** The poster is the frame at this second. */
export const POSTER_AT = 1;

/** One scene per video subject (app/db/seed/vocabulary.ts SUBJECTS.video, same order). */
export const SCENES = [
  "ocean-sunset",
  "city-night",
  "forest-light",
  "coffee",
  "meeting",
  "snowy-street",
  "cherry-blossom",
  "clouds",
  "keyboard",
  "particles",
] as const;
export type SceneName = (typeof SCENES)[number];

type Rgb = readonly [number, number, number];
const hex = (h: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as unknown as Rgb;
const TAU = Math.PI * 2;

/** An RGB frame (8 bits per channel) with the few shapes the scenes need, anti-aliased. */
export class Frame {
  readonly px: Buffer;
  constructor(
    readonly width = SCENE_WIDTH,
    readonly height = SCENE_HEIGHT,
  ) {
    this.px = Buffer.alloc(width * height * 3);
  }

  private blend(i: number, c: Rgb, a: number) {
    const p = this.px;
    p[i] += (c[0] - p[i]) * a;
    p[i + 1] += (c[1] - p[i + 1]) * a;
    p[i + 2] += (c[2] - p[i + 2]) * a;
  }

  /** A vertical gradient through the given stops (0 = top, 1 = bottom). */
  sky(stops: readonly (readonly [number, Rgb])[]) {
    for (let y = 0; y < this.height; y++) {
      const t = y / (this.height - 1);
      let k = 0;
      while (k < stops.length - 2 && t > stops[k + 1][0]) k++;
      const [t0, c0] = stops[k];
      const [t1, c1] = stops[k + 1];
      const u = Math.min(1, Math.max(0, (t - t0) / (t1 - t0 || 1)));
      const r = c0[0] + (c1[0] - c0[0]) * u;
      const g = c0[1] + (c1[1] - c0[1]) * u;
      const b = c0[2] + (c1[2] - c0[2]) * u;
      for (let x = 0; x < this.width; x++) {
        const i = (y * this.width + x) * 3;
        this.px[i] = r;
        this.px[i + 1] = g;
        this.px[i + 2] = b;
      }
    }
  }

  /** A disc; `soft` widens the edge into a glow (pixels). */
  disc(cx: number, cy: number, r: number, c: Rgb, alpha = 1, soft = 1) {
    const x0 = Math.max(0, Math.floor(cx - r - soft));
    const x1 = Math.min(this.width - 1, Math.ceil(cx + r + soft));
    const y0 = Math.max(0, Math.floor(cy - r - soft));
    const y1 = Math.min(this.height - 1, Math.ceil(cy + r + soft));
    const outer = (r + soft / 2) ** 2;
    const inner = Math.max(0, r - soft / 2) ** 2;
    for (let y = y0; y <= y1; y++) {
      const dy = y + 0.5 - cy;
      for (let x = x0; x <= x1; x++) {
        const dx = x + 0.5 - cx;
        const d2 = dx * dx + dy * dy;
        if (d2 >= outer) continue;
        const a = d2 <= inner ? alpha : Math.min(1, Math.max(0, 0.5 - (Math.sqrt(d2) - r) / soft)) * alpha;
        if (a > 0) this.blend((y * this.width + x) * 3, c, a);
      }
    }
  }

  /** A rectangle with anti-aliased horizontal edges. */
  rect(x0: number, y0: number, x1: number, y1: number, c: Rgb, alpha = 1) {
    const ys = Math.max(0, Math.floor(y0));
    const ye = Math.min(this.height - 1, Math.ceil(y1));
    const xs = Math.max(0, Math.floor(x0));
    const xe = Math.min(this.width - 1, Math.ceil(x1));
    for (let y = ys; y <= ye; y++) {
      const cover = Math.min(1, Math.min(y + 1, y1) - Math.max(y, y0));
      if (cover <= 0) continue;
      for (let x = xs; x <= xe; x++) {
        const cx = Math.min(1, Math.min(x + 1, x1) - Math.max(x, x0));
        if (cx > 0) this.blend((y * this.width + x) * 3, c, cover * cx * alpha);
      }
    }
  }

  /** Everything below the curve `top(x)` (a ridge, a hill, the sea), its edge anti-aliased. */
  below(top: (x: number) => number, c: Rgb, alpha = 1, shade?: (y: number) => number) {
    for (let x = 0; x < this.width; x++) {
      const t = top(x + 0.5);
      const y0 = Math.max(0, Math.floor(t));
      for (let y = y0; y < this.height; y++) {
        const a = Math.min(1, y + 1 - t) * alpha * (shade ? shade(y) : 1);
        if (a > 0) this.blend((y * this.width + x) * 3, c, a);
      }
    }
  }
}

/** A smooth periodic ridge: a few sines whose periods divide the frame width, so it scrolls seamlessly. */
function ridge(seed: number, base: number, amp: number) {
  const rnd = createRandom(seed);
  const waves = [1, 2, 3, 5].map((k) => ({ k, a: amp * rnd.next() * (1.2 / k), p: rnd.next() * TAU }));
  return (x: number, shift: number) => {
    let y = base;
    for (const w of waves) y -= w.a * Math.sin(((x + shift) / SCENE_WIDTH) * TAU * w.k + w.p);
    return y;
  };
}

/** Points that loop over the clip: each starts at a random place and crosses the frame a whole number of times. */
function drifters(seed: number, count: number) {
  const rnd = createRandom(seed);
  return Array.from({ length: count }, () => ({
    x: rnd.next(),
    y: rnd.next(),
    laps: 1 + Math.floor(rnd.next() * 2),
    size: rnd.next(),
    phase: rnd.next(),
    sway: rnd.next() * TAU,
  }));
}
const wrap = (v: number) => v - Math.floor(v);

/** A scene: what stays still (drawn once per clip) and what moves over it at `u` (0 to 1 over the loop). */
interface Scene {
  still(f: Frame): void;
  move(f: Frame, u: number): void;
}

const W = SCENE_WIDTH;
const H = SCENE_HEIGHT;

const SCENE_DEFS: Record<SceneName, Scene> = {
  "ocean-sunset": {
    still(f) {
      f.sky([
        [0, hex("#3b1d5e")],
        [0.35, hex("#c2410c")],
        [0.6, hex("#fdba74")],
      ]);
      f.disc(W * 0.62, H * 0.5, 70, hex("#fed7aa"), 0.25, 60);
      f.disc(W * 0.62, H * 0.5, 38, hex("#fff7ed"), 1, 1.5);
      const horizon = H * 0.6;
      f.rect(0, horizon, W, H, hex("#7c2d12"));
      f.below(
        () => horizon,
        hex("#1e1b4b"),
        1,
        (y) => (y - horizon) / (H - horizon),
      );
    },
    move(f, u) {
      // The sun's glitter on the water: short bright dashes that shimmer along the sea's swell.
      const horizon = H * 0.6;
      const rnd = createRandom(41);
      for (let k = 0; k < 90; k++) {
        const row = rnd.next();
        const y = horizon + 4 + row * row * (H - horizon - 6);
        const spread = 20 + row * 110;
        const x = W * 0.62 + (rnd.next() - 0.5) * 2 * spread + 8 * Math.sin(u * TAU * 2 + k);
        const glow = 0.35 + 0.65 * Math.abs(Math.sin(u * TAU * 2 + k * 1.7));
        f.rect(x, y, x + 6 + row * 22, y + 1 + row * 2, hex("#fed7aa"), glow * (1 - row * 0.5));
      }
    },
  },
  "city-night": {
    still(f) {
      f.sky([
        [0, hex("#020617")],
        [0.7, hex("#1e3a8a")],
        [1, hex("#312e81")],
      ]);
      f.disc(W * 0.18, H * 0.2, 18, hex("#f8fafc"), 0.95, 1.5);
      const rnd = createRandom(7);
      for (const depth of [0, 1]) {
        let x = -10;
        while (x < W) {
          const bw = 30 + rnd.int(0, 50);
          const top = H * (depth === 0 ? 0.3 : 0.45) + rnd.int(0, 90);
          f.rect(x, top, x + bw - 4, H, depth === 0 ? hex("#0f172a") : hex("#1e293b"));
          for (let wy = top + 8; wy < H - 40; wy += 12)
            for (let wx = x + 5; wx < x + bw - 10; wx += 9) {
              const seed = rnd.next();
              if (seed > 0.45) f.rect(wx, wy, wx + 4, wy + 6, seed > 0.7 ? hex("#fde68a") : hex("#fbbf24"), 0.85);
            }
          x += bw;
        }
      }
      f.rect(0, H - 34, W, H, hex("#0b1120"));
    },
    move(f, u) {
      // Car lights on the avenue: warm ones one way, red ones the other; a beacon blinking on a tower.
      for (let k = 0; k < 7; k++) {
        const a = wrap(k / 7 + u * 2);
        f.rect(a * (W + 120) - 120, H - 26, a * (W + 120) - 40, H - 22, hex("#fef3c7"), 0.9);
        const b = wrap(k / 7 + 0.05 - u);
        f.rect(b * (W + 120) - 120, H - 16, b * (W + 120) - 50, H - 12, hex("#ef4444"), 0.85);
      }
      if (Math.sin(u * TAU * 4) > 0) f.disc(W * 0.7, H * 0.28, 3, hex("#ef4444"), 1, 4);
    },
  },
  "forest-light": {
    still(f) {
      f.sky([
        [0, hex("#ecfccb")],
        [0.5, hex("#65a30d")],
        [1, hex("#14532d")],
      ]);
    },
    move(f, u) {
      // Rays of light through the canopy, slowly breathing, and trunks passing by.
      for (let k = 0; k < 5; k++) {
        const x0 = W * (0.15 + k * 0.17);
        const a = 0.12 + 0.08 * Math.sin(u * TAU + k * 1.3);
        for (let y = 0; y < H; y += 2) f.rect(x0 + y * 0.45, y, x0 + y * 0.45 + 26 + y * 0.06, y + 2, hex("#fefce8"), a);
      }
      const far = ridge(31, H * 0.72, 20);
      f.below((x) => far(x, u * W), hex("#166534"), 0.9);
      const rnd = createRandom(32);
      for (let k = 0; k < 9; k++) {
        const x = wrap(rnd.next() + u) * (W + 60) - 30;
        const w = 12 + rnd.int(0, 16);
        f.rect(x, 0, x + w, H, hex("#3f2a14"), 0.95);
      }
      const near = ridge(33, H * 0.9, 14);
      f.below((x) => near(x, u * 2 * W), hex("#052e16"));
    },
  },
  coffee: {
    still(f) {
      f.sky([
        [0, hex("#fef3c7")],
        [1, hex("#d6a76c")],
      ]);
      f.rect(0, H * 0.78, W, H, hex("#7c4a21"));
      f.rect(W / 2 - 80, H * 0.5, W / 2 + 80, H * 0.8, hex("#f8fafc"));
      f.disc(W / 2 + 92, H * 0.62, 22, hex("#f8fafc"));
      f.disc(W / 2 + 92, H * 0.62, 11, hex("#e7c9a0"));
      f.rect(W / 2 - 150, 0, W / 2 + 40, 26, hex("#1f2937"));
    },
    move(f, u) {
      const cx = W / 2;
      // Steam rising in loops beside the pour, the coffee's level swaying, the pour itself.
      for (let k = 0; k < 2; k++)
        for (let s = 0; s < 24; s++) {
          const p = wrap(s / 24 + u);
          const y = H * 0.5 - p * 110;
          const x = cx - 50 + k * 100 + 10 * Math.sin(p * 9 + k);
          f.disc(x, y, 5 + p * 6, hex("#ffffff"), 0.12 * (1 - p), 6);
        }
      const level = 0.55 + 0.02 * Math.sin(u * TAU);
      f.rect(cx - 72, H * level, cx + 72, H * level + 10, hex("#3b2412"));
      const sway = 2 * Math.sin(u * TAU * 3);
      f.rect(cx - 5 + sway, 26, cx + 5 + sway, H * level + 2, hex("#4a2c15"), 0.95);
    },
  },
  meeting: {
    still(f) {
      f.sky([
        [0, hex("#e0f2fe")],
        [1, hex("#bae6fd")],
      ]);
      // A bright office out of focus: window lights as bokeh behind the team.
      for (const b of drifters(51, 14)) f.disc(b.x * W, b.y * H * 0.6, 10 + b.size * 26, hex("#ffffff"), 0.4, 12);
      f.rect(0, H * 0.62, W, H, hex("#e2e8f0"));
    },
    move(f, u) {
      const people = [0.18, 0.38, 0.62, 0.82];
      people.forEach((px, k) => {
        const bob = 3 * Math.sin(u * TAU * (k % 2 ? 1 : 2) + k);
        const col = [hex("#1d4ed8"), hex("#0f766e"), hex("#9333ea"), hex("#b45309")][k];
        f.disc(W * px, H * 0.36 + bob, 26, hex("#f1c27d"));
        f.rect(W * px - 46, H * 0.47 + bob, W * px + 46, H * 0.72, col);
        f.disc(W * px, H * 0.5 + bob, 44, col);
      });
      f.rect(W * 0.06, H * 0.7, W * 0.94, H * 0.78, hex("#78350f"));
      f.rect(W * 0.08, H * 0.78, W * 0.92, H, hex("#92400e"), 0.6);
    },
  },
  "snowy-street": {
    still(f) {
      f.sky([
        [0, hex("#1e293b")],
        [0.7, hex("#64748b")],
        [1, hex("#e2e8f0")],
      ]);
      const rnd = createRandom(61);
      let x = 0;
      while (x < W) {
        const bw = 60 + rnd.int(0, 60);
        const top = H * 0.35 + rnd.int(0, 60);
        f.rect(x, top, x + bw - 6, H * 0.82, hex("#334155"));
        for (let wy = top + 14; wy < H * 0.76; wy += 22)
          for (let wx = x + 10; wx < x + bw - 20; wx += 18) if (rnd.next() > 0.4) f.rect(wx, wy, wx + 8, wy + 10, hex("#fcd34d"), 0.8);
        f.rect(x, top - 4, x + bw - 6, top + 2, hex("#f8fafc"));
        x += bw;
      }
      f.rect(0, H * 0.82, W, H, hex("#f1f5f9"));
    },
    move(f, u) {
      for (const s of drifters(62, 160)) {
        const y = wrap(s.y + u * s.laps) * (H + 20) - 10;
        const x = wrap(s.x + 0.03 * Math.sin(s.sway + u * TAU)) * W;
        f.disc(x, y, 1 + s.size * 2.5, hex("#ffffff"), 0.9, 1.2);
      }
    },
  },
  "cherry-blossom": {
    still(f) {
      f.sky([
        [0, hex("#fdf2f8")],
        [0.65, hex("#fbcfe8")],
        [1, hex("#f9a8d4")],
      ]);
      const path = ridge(71, H * 0.8, 10);
      f.below((x) => path(x, 0), hex("#a3e635"), 0.7);
      const rnd = createRandom(72);
      for (let k = 0; k < 5; k++) {
        const tx = W * (0.1 + k * 0.2) + rnd.int(-20, 20);
        f.rect(tx - 6, H * 0.35, tx + 6, H * 0.82, hex("#57300f"));
        for (let c = 0; c < 9; c++)
          f.disc(tx + rnd.int(-60, 60), H * 0.3 + rnd.int(-40, 30), 26 + rnd.int(0, 14), c % 2 ? hex("#f472b6") : hex("#fbcfe8"), 0.9, 3);
      }
    },
    move(f, u) {
      for (const p of drifters(73, 70)) {
        const y = wrap(p.y + u * p.laps) * (H + 20) - 10;
        const x = wrap(p.x + 0.04 * Math.sin(p.sway + u * TAU * 2)) * W;
        f.disc(x, y, 2 + p.size * 2, hex("#ec4899"), 0.85, 1.5);
      }
    },
  },
  clouds: {
    still(f) {
      f.sky([
        [0, hex("#1d4ed8")],
        [0.6, hex("#60a5fa")],
        [1, hex("#dbeafe")],
      ]);
      const hills = ridge(82, H * 0.88, 18);
      f.below((x) => hills(x, 0), hex("#166534"));
    },
    move(f, u) {
      for (const c of drifters(81, 8)) {
        const cx = wrap(c.x + u * c.laps) * (W + 300) - 150;
        const cy = H * (0.15 + c.y * 0.45);
        const s = 0.6 + c.size * 0.7;
        // A cumulus: a flat base and puffs that grow towards the middle.
        for (let k = 0; k < 5; k++) {
          const lift = Math.sin((k / 4) * Math.PI);
          f.disc(cx + (k - 2) * 24 * s, cy - lift * 14 * s, (18 + 16 * lift) * s, hex("#ffffff"), 0.9, 8);
        }
        f.rect(cx - 60 * s, cy, cx + 60 * s, cy + 16 * s, hex("#ffffff"), 0.9);
      }
    },
  },
  keyboard: {
    still(f) {
      f.sky([
        [0, hex("#111827")],
        [1, hex("#1f2937")],
      ]);
      for (let r = 0; r < KEY_ROWS; r++) for (let c = 0; c < KEY_COLS; c++) key(f, r, c, hex("#374151"));
      f.rect(30 + 3 * KEY_W, 40 + 4 * KEY_H + 3, 30 + 10 * KEY_W, 40 + 5 * KEY_H - 3, hex("#4b5563"));
    },
    move(f, u) {
      const pressed = Math.floor(u * 16);
      for (let r = 0; r < KEY_ROWS - 1; r++)
        for (let c = 0; c < KEY_COLS; c++) if ((c * 7 + r * 3 + pressed * 5) % 16 === 0) key(f, r, c, hex("#a78bfa"));
    },
  },
  particles: {
    still(f) {
      f.sky([
        [0, hex("#0f0a1f")],
        [1, hex("#2e1065")],
      ]);
    },
    move(f, u) {
      for (const p of drifters(91, 80)) {
        const a = p.phase * TAU + u * TAU * p.laps;
        const rad = 40 + p.y * 150;
        const x = W / 2 + Math.cos(a) * rad * 1.6;
        const y = H / 2 + Math.sin(a) * rad * 0.7;
        const col = p.size > 0.5 ? hex("#c4b5fd") : hex("#67e8f9");
        f.disc(x, y, 1.5 + p.size * 3, col, 0.35, 10);
        f.disc(x, y, 1 + p.size * 2, col, 0.95, 1.2);
      }
    },
  },
};

const KEY_COLS = 13;
const KEY_ROWS = 5;
const KEY_W = (W - 60) / KEY_COLS;
const KEY_H = (H - 80) / KEY_ROWS;
function key(f: Frame, r: number, c: number, color: Rgb) {
  const x = 30 + c * KEY_W + (r % 2) * 8;
  const y = 40 + r * KEY_H;
  f.rect(x + 3, y + 3, x + KEY_W - 3, y + KEY_H - 3, color);
  f.rect(x + 3, y + KEY_H - 8, x + KEY_W - 3, y + KEY_H - 3, hex("#000000"), 0.25);
}

/** Draws scene `name` at time `t` seconds (0 to SCENE_SECONDS; the frame at SCENE_SECONDS equals the one at 0). */
export function drawScene(name: SceneName, t: number, f = new Frame(), still?: Buffer): Frame {
  const scene = SCENE_DEFS[name];
  if (still) f.px.set(still);
  else scene.still(f);
  scene.move(f, t / SCENE_SECONDS);
  return f;
}

/** All the frames of a scene's loop, in order, as raw RGB24 bytes. */
export function* sceneFrames(name: SceneName): Generator<Buffer> {
  const count = SCENE_FPS * SCENE_SECONDS;
  const frame = new Frame();
  SCENE_DEFS[name].still(frame);
  const still = Buffer.from(frame.px);
  for (let i = 0; i < count; i++) yield drawScene(name, i / SCENE_FPS, frame, still).px;
}

/**
 * A hash of the code that draws the scenes (this file's source, the same whichever tool runs it): encoded clips
 * are cached under it, so any change to a scene encodes the clips again.
 */
export function sceneCodeHash(): string {
  let source: string;
  try {
    source = fs.readFileSync(new URL(import.meta.url), "utf8");
  } catch {
    // Bundled somewhere without its source: the functions' own text still changes with the code.
    const defs = Object.entries(SCENE_DEFS).map(([name, d]) => `${name}:${d.still}:${d.move}`);
    source = [Frame.toString(), ridge.toString(), drifters.toString(), key.toString(), drawScene.toString(), ...defs].join("\n");
  }
  return createHash("sha256").update(source).digest("hex");
}
