import { describe, expect, it } from "vitest";
import { synthBgm, synthSe } from "../../app/db/seed/media.server";

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
