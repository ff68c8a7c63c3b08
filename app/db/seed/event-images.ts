import zlib from "node:zlib";
import { createRandom } from "./random";

/**
 * The demo events' images: real raster pictures (PNG), drawn pixel by pixel with anti-aliased shapes (signed
 * distances) and encoded here with node's zlib, so the seed needs no image library or network. Each event has a
 * motif that says what it is about: a coupon ticket with a percent sign, an equalizer, a play button, test stripes.
 */
export const EVENT_IMAGE_WIDTH = 1200;
export const EVENT_IMAGE_HEIGHT = 600;

export type EventMotif = "coupon" | "audio" | "video" | "test";

export const EVENT_IMAGES: readonly { file: string; motif: EventMotif; palette: readonly [string, string] }[] = [
  { file: "event-welcome.png", motif: "coupon", palette: ["#5b21b6", "#c4b5fd"] },
  { file: "event-new-video.png", motif: "video", palette: ["#0f766e", "#5eead4"] },
  { file: "event-summer-audio.png", motif: "audio", palette: ["#c2410c", "#fdba74"] },
  { file: "event-test.png", motif: "test", palette: ["#1d4ed8", "#93c5fd"] },
];

type Rgb = [number, number, number];
const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as Rgb;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** A float RGB canvas that shapes are blended onto. */
class Canvas {
  readonly px: Float32Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.px = new Float32Array(width * height * 3);
  }

  /** Fills the canvas with a linear gradient from `from` to `to`, weighted across (wx) and up (wy). */
  gradient(from: Rgb, to: Rgb, wx: number, wy: number) {
    for (let y = 0; y < this.height; y++)
      for (let x = 0; x < this.width; x++) {
        const t = clamp01((x / this.width) * wx + (1 - y / this.height) * wy);
        const i = (y * this.width + x) * 3;
        for (let k = 0; k < 3; k++) this.px[i + k] = from[k] + (to[k] - from[k]) * t;
      }
  }

  /**
   * Blends a shape given by its signed distance (pixels, negative inside) over a bounding box; the edge is
   * anti-aliased over one pixel.
   */
  shape(box: [number, number, number, number], sdf: (x: number, y: number) => number, color: Rgb, alpha = 1) {
    const [x0, y0, x1, y1] = box.map(Math.round);
    for (let y = Math.max(0, y0 - 1); y < Math.min(this.height, y1 + 2); y++)
      for (let x = Math.max(0, x0 - 1); x < Math.min(this.width, x1 + 2); x++) {
        const a = clamp01(0.5 - sdf(x + 0.5, y + 0.5)) * alpha;
        if (a <= 0) continue;
        const i = (y * this.width + x) * 3;
        for (let k = 0; k < 3; k++) this.px[i + k] += (color[k] - this.px[i + k]) * a;
      }
  }

  /** RGB bytes, 8 bits per channel. */
  bytes(): Buffer {
    const out = Buffer.alloc(this.px.length);
    for (let i = 0; i < this.px.length; i++) out[i] = Math.round(clamp01(this.px[i]) * 255);
    return out;
  }
}

// Signed distance functions (pixels, negative inside).
const circle = (cx: number, cy: number, r: number) => (x: number, y: number) => Math.hypot(x - cx, y - cy) - r;
const roundedBox = (cx: number, cy: number, hw: number, hh: number, r: number) => (x: number, y: number) => {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
const segment = (ax: number, ay: number, bx: number, by: number, width: number) => (x: number, y: number) => {
  const dx = bx - ax;
  const dy = by - ay;
  const t = clamp01(((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy));
  return Math.hypot(x - ax - t * dx, y - ay - t * dy) - width / 2;
};
const ring = (cx: number, cy: number, r: number, width: number) => (x: number, y: number) =>
  Math.abs(Math.hypot(x - cx, y - cy) - r) - width / 2;
/** A convex polygon, points clockwise on screen. */
const polygon = (pts: [number, number][]) => (x: number, y: number) => {
  let d = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < pts.length; i++) {
    const [ax, ay] = pts[i];
    const [bx, by] = pts[(i + 1) % pts.length];
    const len = Math.hypot(bx - ax, by - ay);
    d = Math.max(d, ((x - ax) * (by - ay) - (y - ay) * (bx - ax)) / len);
  }
  return d;
};

const WHITE: Rgb = [1, 1, 1];
const CREAM = rgb("#fff7ed");

function backdrop(c: Canvas, seed: number, dark: Rgb, light: Rgb) {
  const { width: w, height: h } = c;
  c.gradient(dark, light, 0.65, 0.35);
  const rnd = createRandom(seed);
  for (let k = 0; k < 9; k++) {
    const r = rnd.int(30, 140);
    const cx = rnd.int(0, w);
    const cy = rnd.int(0, h * 0.7);
    c.shape([cx - r, cy - r, cx + r, cy + r], circle(cx, cy, r), CREAM, 0.08 + rnd.next() * 0.1);
  }
  // Two soft hills along the bottom, like the catalog's posters.
  for (let k = 0; k < 2; k++) {
    const base = h * (0.8 + k * 0.08);
    const phase = rnd.next() * Math.PI * 2;
    const amp = h * 0.05;
    const hill = (x: number, y: number) => base - amp * Math.sin((x / w) * Math.PI * 2 + phase) - y;
    c.shape([0, base - amp - 2, w, h], hill, dark, 0.35 + k * 0.3);
  }
}

function coupon(c: Canvas, dark: Rgb) {
  const cx = c.width / 2;
  const cy = c.height * 0.45;
  const hw = 300;
  const hh = 150;
  const body = roundedBox(cx, cy, hw, hh, 24);
  const notchL = circle(cx - hw, cy, 34);
  const notchR = circle(cx + hw, cy, 34);
  const ticket = (x: number, y: number) => Math.max(body(x, y), -notchL(x, y), -notchR(x, y));
  c.shape([cx - hw - 30, cy - hh + 18, cx + hw + 30, cy + hh + 18], (x, y) => ticket(x - 10, y - 14), [0, 0, 0], 0.18);
  c.shape([cx - hw, cy - hh, cx + hw, cy + hh], ticket, WHITE);
  // The perforation: short dashes down the stub.
  const px = cx + hw - 150;
  for (let y = cy - hh + 24; y < cy + hh - 24; y += 28) c.shape([px - 3, y, px + 3, y + 14], roundedBox(px, y + 7, 3, 7, 3), dark, 0.55);
  // A percent sign: two rings and a slash.
  const ox = cx - 75;
  c.shape([ox - 110, cy - 110, ox + 110, cy + 110], segment(ox + 70, cy - 95, ox - 70, cy + 95, 26), dark);
  c.shape([ox - 100, cy - 100, ox - 10, cy - 10], ring(ox - 55, cy - 55, 32, 22), dark);
  c.shape([ox + 10, cy + 10, ox + 100, cy + 100], ring(ox + 55, cy + 55, 32, 22), dark);
  // A star on the stub.
  const sx = cx + hw - 75;
  const star: [number, number][] = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 === 0 ? 44 : 19;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return [sx + r * Math.cos(a), cy + r * Math.sin(a)];
  });
  // The star is concave: draw it as five triangles around its centre.
  for (let i = 0; i < 10; i += 2) {
    const tri: [number, number][] = [star[(i + 9) % 10], star[i], star[(i + 1) % 10]];
    c.shape([sx - 48, cy - 48, sx + 48, cy + 48], polygon(tri), dark);
  }
  c.shape([sx - 22, cy - 22, sx + 22, cy + 22], circle(sx, cy, 20), dark);
}

function equalizer(c: Canvas, seed: number) {
  const rnd = createRandom(seed);
  const bars = 19;
  const gap = 14;
  const bw = 30;
  const total = bars * bw + (bars - 1) * gap;
  const x0 = (c.width - total) / 2;
  const base = c.height * 0.72;
  for (let i = 0; i < bars; i++) {
    const t = i / (bars - 1);
    const height = 60 + Math.sin(t * Math.PI) * 220 * (0.55 + rnd.next() * 0.45);
    const cx = x0 + i * (bw + gap) + bw / 2;
    const cy = base - height / 2;
    c.shape([cx - bw / 2, cy - height / 2, cx + bw / 2, cy + height / 2], roundedBox(cx, cy, bw / 2, height / 2, bw / 2), WHITE, 0.92);
  }
}

function playButton(c: Canvas, dark: Rgb) {
  const cx = c.width / 2;
  const cy = c.height * 0.45;
  c.shape([cx - 260, cy - 150, cx + 260, cy + 150], roundedBox(cx, cy, 260, 150, 36), WHITE, 0.94);
  c.shape(
    [cx - 60, cy - 80, cx + 90, cy + 80],
    polygon([
      [cx - 50, cy - 75],
      [cx + 85, cy],
      [cx - 50, cy + 75],
    ]),
    dark,
  );
}

function testStripes(c: Canvas) {
  const yellow = rgb("#facc15");
  const ink = rgb("#111827");
  const cy = c.height * 0.45;
  const band = 90;
  c.shape([0, cy - band, c.width, cy + band], (_x, y) => Math.abs(y - cy) - band, yellow);
  const stripe = 60;
  // 45-degree stripes: u runs across them; a stripe covers the first half of each period.
  const diagonal = (x: number, y: number) => {
    const u = (x + y) % (stripe * 2);
    const across = u < stripe ? -Math.min(u, stripe - u) : Math.min(u - stripe, stripe * 2 - u);
    return Math.max(across / Math.SQRT2, Math.abs(y - cy) - band);
  };
  c.shape([0, cy - band, c.width, cy + band], diagonal, ink, 0.9);
  c.shape([c.width / 2 - 220, cy - 60, c.width / 2 + 220, cy + 60], roundedBox(c.width / 2, cy, 220, 60, 16), WHITE);
  // A check mark on the label: checked before it is published.
  c.shape([c.width / 2 - 75, cy - 15, c.width / 2 + 5, cy + 50], segment(c.width / 2 - 60, cy, c.width / 2 - 15, cy + 35, 18), ink);
  c.shape([c.width / 2 - 80, cy - 55, c.width / 2 + 85, cy + 50], segment(c.width / 2 - 15, cy + 35, c.width / 2 + 70, cy - 40, 18), ink);
}

/** One event's picture as RGB pixels. */
export function drawEventImage(i: number, width = EVENT_IMAGE_WIDTH, height = EVENT_IMAGE_HEIGHT): Canvas {
  const spec = EVENT_IMAGES[i % EVENT_IMAGES.length];
  const [dark, light] = spec.palette.map(rgb) as [Rgb, Rgb];
  const c = new Canvas(width, height);
  backdrop(c, 5000 + i, dark, light);
  if (spec.motif === "coupon") coupon(c, dark);
  else if (spec.motif === "audio") equalizer(c, 6000 + i);
  else if (spec.motif === "video") playButton(c, dark);
  else testStripes(c);
  return c;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * An 8-bit truecolour PNG. Every row uses the Sub filter (each byte minus the same channel of the pixel to its
 * left): on these smooth pictures it compresses better than choosing a filter per row.
 */
export function encodePng(width: number, height: number, rgbBytes: Buffer): Buffer {
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const out = y * (stride + 1);
    raw[out] = 1; // Sub
    for (let i = 0; i < stride; i++) raw[out + 1 + i] = (rgbBytes[row + i] - (i >= 3 ? rgbBytes[row + i - 3] : 0)) & 0xff;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** One event's picture as a PNG file's bytes. */
export function eventImagePng(i: number): Buffer {
  const c = drawEventImage(i);
  return encodePng(c.width, c.height, c.bytes());
}
