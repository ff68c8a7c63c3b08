import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { EVENT_IMAGES, encodePng, eventImagePng } from "../../app/db/seed/event-images";
import { synthBgm, synthSe } from "../../app/db/seed/media.server";
import { drawScene, POSTER_AT, SCENE_SECONDS, SCENES } from "../../app/db/seed/scenes";
import { SUBJECTS } from "../../app/db/seed/vocabulary";
import { barsOf, PEAK_COUNT, peaksOf, peaksUrlOf, waveformSvg, wavSamples } from "../../app/market/catalog/waveform";

/** Reads a PCM WAV header the way a decoder does. */
function parseWav(buf: Buffer) {
  expect(buf.toString("ascii", 0, 4)).toBe("RIFF");
  expect(buf.readUInt32LE(4)).toBe(buf.length - 8);
  expect(buf.toString("ascii", 8, 12)).toBe("WAVE");
  expect(buf.toString("ascii", 12, 16)).toBe("fmt ");
  expect(buf.toString("ascii", 36, 40)).toBe("data");
  const rate = buf.readUInt32LE(24);
  const dataBytes = buf.readUInt32LE(40);
  expect(dataBytes).toBe(buf.length - 44);
  return { channels: buf.readUInt16LE(22), rate, bits: buf.readUInt16LE(34), seconds: dataBytes / 2 / rate };
}

describe("demo audio", () => {
  it("writes valid 16-bit mono PCM WAV files of the expected length", () => {
    expect(parseWav(synthBgm(0, 90))).toEqual({ channels: 1, rate: 22050, bits: 16, seconds: 12 });
    expect(parseWav(synthSe(1)).seconds).toBeCloseTo(1.5, 2);
  });

  it("is not silent and does not clip", () => {
    const buf = synthBgm(2, 120);
    let peak = 0;
    for (let i = 44; i < buf.length; i += 2) peak = Math.max(peak, Math.abs(buf.readInt16LE(i)));
    expect(peak).toBeGreaterThan(3000);
    expect(peak).toBeLessThan(32767);
  });
});

/** Reads an 8-bit truecolour PNG back the way a decoder does: chunks and their CRCs, inflate, undo each row's filter. */
function decodePng(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  const types: string[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(zlib.crc32(png.subarray(at + 4, at + 8 + length)) >>> 0);
    types.push(type);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([...data.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
    }
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  expect(types[0]).toBe("IHDR");
  expect(types.at(-1)).toBe("IEND");
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  expect(raw.length).toBe((stride + 1) * height);
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const a = i >= 3 ? out[y * stride + i - 3] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = y > 0 && i >= 3 ? out[(y - 1) * stride + i - 3] : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter];
      out[y * stride + i] = (raw[y * (stride + 1) + 1 + i] + predicted) & 0xff;
    }
  }
  return { width, height, rgb: out };
}

describe("demo event pictures", () => {
  it("encodes PNGs that decode to exactly the pixels drawn", () => {
    const rgb = Buffer.alloc(37 * 11 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 7919) % 256;
    expect(decodePng(encodePng(37, 11, rgb))).toEqual({ width: 37, height: 11, rgb });
  });

  it("draws each event a 1200x600 picture with its own colours, not a flat fill", () => {
    const means = EVENT_IMAGES.map((_, i) => {
      const { width, height, rgb } = decodePng(eventImagePng(i));
      expect([width, height]).toEqual([1200, 600]);
      expect(new Set(rgb).size).toBeGreaterThan(100);
      const sums = [0, 0, 0];
      for (let j = 0; j < rgb.length; j++) sums[j % 3] += rgb[j];
      return sums.map((v) => Math.round(v / (width * height)));
    });
    expect(new Set(means.map((m) => m.join())).size).toBe(EVENT_IMAGES.length);
  }, 30_000);
});

describe("demo video scenes", () => {
  it("draws a different picture for every scene, and each loop ends where it starts (a seamless clip)", () => {
    const posters = SCENES.map((scene) => Buffer.from(drawScene(scene, POSTER_AT).px));
    expect(new Set(posters.map((p) => p.toString("base64"))).size).toBe(SCENES.length);
    for (const scene of SCENES) {
      const first = drawScene(scene, 0).px;
      const last = drawScene(scene, SCENE_SECONDS).px;
      let off = 0;
      for (let i = 0; i < first.length; i++) off += Math.abs(first[i] - last[i]) > 8 ? 1 : 0;
      expect(off / first.length, scene).toBeLessThan(0.002);
      // Something moves: a quarter into the loop differs from its start.
      expect(Buffer.compare(Buffer.from(drawScene(scene, SCENE_SECONDS / 4).px), Buffer.from(first)), scene).not.toBe(0);
    }
  });

  it("gives the seed's video subjects one scene each, in order", () => {
    expect(SCENES.length).toBe(SUBJECTS.video.length);
    expect(SCENES.slice(0, 3)).toEqual(["ocean-sunset", "city-night", "forest-light"]);
    expect(SUBJECTS.video.slice(0, 3).map((s) => s[1])).toEqual(["Ocean sunset", "City lights at night", "Sunlight in the forest"]);
  });
});

describe("waveforms from precomputed peaks", () => {
  it("reads a WAV's samples back and takes their peaks per slice", () => {
    const samples = wavSamples(synthSe(0));
    expect(samples?.length).toBe(22050);
    const peaks = peaksOf(samples ?? new Int16Array(0));
    expect(peaks).toHaveLength(PEAK_COUNT);
    expect(Math.max(...peaks)).toBeGreaterThan(0.2);
    // The sweep's envelope (sin²) is quiet at both ends and loud in the middle.
    expect(peaks[200]).toBeGreaterThan(peaks[2] * 4);
    expect(wavSamples(Buffer.from("not a wav file at all, not even close to one"))).toBeNull();
  });

  it("draws the peaks as 64 bars scaled to the loudest, with the quiet ones still visible", () => {
    const peaks = Array.from({ length: 400 }, (_, i) => (i < 200 ? 0.1 : 0.5));
    expect(barsOf(peaks, 4)).toEqual([0.2, 0.2, 1, 1]);
    const svg = waveformSvg(peaks);
    expect(svg.startsWith("<svg")).toBe(true);
    const heights = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(heights).toHaveLength(64);
    expect(Math.max(...heights)).toBeCloseTo(360 * 0.62, 0);
    expect(Math.min(...heights)).toBeCloseTo(360 * 0.62 * 0.2, 0);
    expect(waveformSvg(peaks, "effect")).toContain("#0f766e");
  });

  it("finds the peaks beside a waveform picture, for seeded and uploaded items alike", () => {
    expect(peaksUrlOf("/media/audio/bgm-1.waveform.svg")).toBe("/media/audio/bgm-1.peaks.json");
    expect(peaksUrlOf("/media/uploads/AU0000301/waveform.svg")).toBe("/media/uploads/AU0000301/peaks.json");
    expect(peaksUrlOf("/media/scenes/clouds.png")).toBeNull();
    expect(peaksUrlOf(null)).toBeNull();
  });
});
