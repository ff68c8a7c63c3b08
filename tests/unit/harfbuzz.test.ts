// @vitest-environment node
// (subset-font's fontverter loads Emscripten output, which takes jsdom's window for a browser.)
import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { isSfnt, subsetSfnt } from "../../app/market/catalog/harfbuzz.server";
import { readSfnt, sfntToWoff2 } from "../../app/market/catalog/woff2.server";

const require = createRequire(import.meta.url);
const subsetFont = require("subset-font") as (font: Buffer, text: string, options: { targetFormat: string }) => Promise<Buffer>;
const font = (name: string) => fs.readFileSync(require.resolve(`@expo-google-fonts/${name}`));

describe("harfbuzz subsets", () => {
  it("are the very bytes subset-font makes, for Latin and Hangul fonts", async () => {
    for (const [file, text] of [
      ["pacifico/400Regular/Pacifico_400Regular.ttf", "The quick brown fox 0123456789"],
      ["jua/400Regular/Jua_400Regular.ttf", "다람쥐 헌 쳇바퀴에 타고파 0123456789"],
    ]) {
      const whole = font(file);
      const ours = await subsetSfnt(whole, text);
      expect(ours.equals(await subsetFont(whole, text, { targetFormat: "truetype" })), file).toBe(true);
      expect(ours.length).toBeLessThan(whole.length / 4);
      expect(readSfnt(ours).tables.map((t) => t.tag)).toContain("cmap");
    }
  });

  it("hold only the glyphs asked for", async () => {
    const whole = font("pacifico/400Regular/Pacifico_400Regular.ttf");
    const numGlyphs = (sfnt: Buffer) => {
      const maxp = readSfnt(sfnt).tables.find((t) => t.tag === "maxp");
      if (!maxp) throw new Error("no maxp table");
      return maxp.data.readUInt16BE(4);
    };
    const small = await subsetSfnt(whole, "AB");
    const large = await subsetSfnt(whole, "ABCDEFGHIJ");
    expect(numGlyphs(small)).toBeLessThan(numGlyphs(large));
    expect(numGlyphs(large)).toBeLessThan(numGlyphs(whole));
  });

  it("take TrueType/OpenType only; WOFF2 goes to subset-font", async () => {
    const woff2 = await sfntToWoff2(await subsetSfnt(font("pacifico/400Regular/Pacifico_400Regular.ttf"), "AB"));
    expect(isSfnt(font("pacifico/400Regular/Pacifico_400Regular.ttf"))).toBe(true);
    expect(isSfnt(woff2)).toBe(false);
    await expect(subsetSfnt(woff2, "AB")).rejects.toThrow(/not a TrueType/);
  });
});
