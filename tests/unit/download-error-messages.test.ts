import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "../../app/i18n/locales/en/common.json";
import ko from "../../app/i18n/locales/ko/common.json";

/** Every refusal the download domain throws is shown translated by the pages (download.error.<code>). */
describe("download error messages", () => {
  const dir = path.join(__dirname, "../../app/market/downloads");
  const codes = new Set<string>();
  for (const f of fs.readdirSync(dir))
    for (const m of fs.readFileSync(path.join(dir, f), "utf8").matchAll(/new MarketError\("([A-Z_]+)"/g)) codes.add(m[1]);

  it("has a message for every code in both languages, PASS_EMPTY in the spec's words", () => {
    expect(codes.size).toBeGreaterThan(3);
    for (const [lang, bundle] of [
      ["en", en],
      ["ko", ko],
    ] as const) {
      const messages = bundle.download.error as Record<string, string>;
      expect([...codes].filter((c) => !messages[c]).map((c) => `${lang} ${c}`)).toEqual([]);
    }
    expect(en.download.error.PASS_EMPTY).toBe("no remaining downloads");
  });
});
