// @vitest-environment node
// (The reference decoder below is Emscripten output, which takes jsdom's window for a browser.)
import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { base128, readSfnt, sfntToWoff2 } from "../../app/market/catalog/woff2.server";

// The font previews' own tools: subset-font (harfbuzz) cuts the subset; fontverter, its dependency, decodes WOFF2
// with Google's reference decoder (woff2, compiled to WebAssembly), the oracle for our writer.
const require = createRequire(import.meta.url);
const fromSubsetFont = createRequire(require.resolve("subset-font"));
const subsetFont = require("subset-font") as (font: Buffer, text: string, options: { targetFormat: string }) => Promise<Buffer>;
const fontverter = fromSubsetFont("fontverter") as { convert: (font: Buffer, to: string) => Promise<Buffer> };
const PACIFICO = require.resolve("@expo-google-fonts/pacifico/400Regular/Pacifico_400Regular.ttf");

describe("WOFF2 writer", () => {
  it("writes UIntBase128 as the spec does", () => {
    expect(base128(0)).toEqual([0]);
    expect(base128(127)).toEqual([127]);
    expect(base128(128)).toEqual([0x81, 0x00]);
    expect(base128(16_383)).toEqual([0xff, 0x7f]);
    expect(base128(16_384)).toEqual([0x81, 0x80, 0x00]);
    expect(base128(0xffffffff)).toEqual([0x8f, 0xff, 0xff, 0xff, 0x7f]);
    expect(() => base128(-1)).toThrow();
  });

  it("writes a font the reference decoder reads back table for table", async () => {
    const ttf = await subsetFont(fs.readFileSync(PACIFICO), "The quick brown fox 0123456789", { targetFormat: "truetype" });
    const woff2 = await sfntToWoff2(ttf);
    expect(woff2.subarray(0, 4).toString("latin1")).toBe("wOF2");
    expect(woff2.readUInt32BE(8)).toBe(woff2.length);
    expect(woff2.length % 4).toBe(0);
    const original = readSfnt(ttf);
    expect(woff2.readUInt16BE(12)).toBe(original.tables.length);
    expect(woff2.length).toBeLessThan(ttf.length);

    const decoded = readSfnt(await fontverter.convert(woff2, "sfnt"));
    expect(decoded.flavor).toBe(original.flavor);
    expect(decoded.tables.map((t) => t.tag).sort()).toEqual(original.tables.map((t) => t.tag).sort());
    for (const table of original.tables) {
      const back = decoded.tables.find((t) => t.tag === table.tag)?.data as Buffer;
      if (table.tag === "head") {
        // The decoder writes its own checkSumAdjustment (bytes 8 to 11); the rest is the table as it was.
        expect(
          Buffer.concat([back.subarray(0, 8), back.subarray(12)]).equals(
            Buffer.concat([table.data.subarray(0, 8), table.data.subarray(12)]),
          ),
        ).toBe(true);
      } else expect(back.equals(table.data), table.tag).toBe(true);
    }
  });

  it("refuses what is not an sfnt font", async () => {
    await expect(sfntToWoff2(Buffer.from("wOF2 is not a TrueType font"))).rejects.toThrow(/not an sfnt font/);
  });
});
