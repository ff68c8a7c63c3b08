import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One Korean word for each of the store's nouns (docs/glossary.md, issue 26.8): the editor is 편집 프로그램 and a pass
 * is 이용권. The variants below are the words the store used before, or would be tempting; none may come back in a
 * Korean locale string, the Korean seed text or the Korean steps of the migrations.
 */
const BANNED: [RegExp, string][] = [
  [/편집기/, "편집 프로그램"],
  [/에디터/, "편집 프로그램"],
  [/편집\s?툴/, "편집 프로그램"],
  [/패스(?!워드)/, "이용권"],
  [/구독권|정기권/, "이용권"],
  [/아이템/, "콘텐츠"],
  [/즐겨찾기|찜/, "관심 콘텐츠"],
  [/시리얼/, "라이선스 키"],
];

type Tree = { [k: string]: string | Tree };
const flatten = (o: Tree, prefix = ""): [string, string][] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [[prefix + k, v] as [string, string]] : flatten(v, `${prefix}${k}.`)));

const variantsIn = (text: string) => BANNED.filter(([re]) => re.test(text)).map(([re, word]) => `${re.source} (use ${word})`);

describe("Korean words follow the glossary", () => {
  it("finds a variant when there is one", () => {
    expect(variantsIn("비디오 에디터에서 열기")).toHaveLength(1);
    expect(variantsIn("패스로 더 많이 내려받기")).toHaveLength(1);
    expect(variantsIn("편집 프로그램에서 이용권으로 다운로드")).toEqual([]);
  });

  const dir = path.resolve("app/i18n/locales/ko");
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    it(`ko/${file} uses no variant`, () => {
      const found = flatten(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")))
        .map(([key, value]) => [key, variantsIn(value)] as const)
        .filter(([, v]) => v.length > 0)
        .map(([key, v]) => `${key}: ${v.join(", ")}`);
      expect(found).toEqual([]);
    });
  }

  it("the Korean seed text and migration steps use no variant", () => {
    const files = [
      ...fs.readdirSync(path.resolve("app/db/seed")).map((f) => path.join("app/db/seed", f)),
      ...fs.readdirSync(path.resolve("app/db/migrations")).map((f) => path.join("app/db/migrations", f)),
      // The search vocabulary is what shoppers type, variants included on purpose (별 → 즐겨찾기): not store text.
    ].filter((f) => /\.tsx?$/.test(f) && !f.endsWith("vocabulary.ts"));
    const found: string[] = [];
    for (const file of files) {
      // Only the string literals that hold Hangul: comments and identifiers are not shown to anyone.
      const src = fs.readFileSync(file, "utf8");
      for (const m of src.matchAll(/"([^"\n]*\p{Script=Hangul}[^"\n]*)"|`([^`]*\p{Script=Hangul}[^`]*)`/gu)) {
        const v = variantsIn(m[1] ?? m[2]);
        if (v.length) found.push(`${file}: ${(m[1] ?? m[2]).slice(0, 60)} — ${v.join(", ")}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the glossary names the two words", () => {
    const glossary = fs.readFileSync(path.resolve("docs/glossary.md"), "utf8");
    expect(glossary).toMatch(/^\| 편집 프로그램 .*\| editor /m);
    expect(glossary).toMatch(/^\| 이용권 \| pass \|/m);
  });
});
