import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve("app/i18n/locales");
type Tree = { [k: string]: string | Tree };
const flatten = (o: Tree, prefix = ""): Record<string, string> =>
  Object.fromEntries(
    Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [[prefix + k, v]] : Object.entries(flatten(v, `${prefix}${k}.`)))),
  );
const load = (lang: string, file: string) => flatten(JSON.parse(fs.readFileSync(path.join(root, lang, file), "utf8")));
const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("ko and en locales stay in step", () => {
  // Every JSON file under each language, the console's admin-*.json included.
  const list = (lang: string) =>
    (fs.readdirSync(path.join(root, lang), { recursive: true }) as string[])
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.split(path.sep).join("/"));
  const files = new Set([...list("ko"), ...list("en")]);
  for (const file of files) {
    it(`${file} has the same keys, no empty strings and the same placeholders`, () => {
      const ko = load("ko", file);
      const en = load("en", file);
      expect(Object.keys(ko).sort()).toEqual(Object.keys(en).sort());
      for (const [key, value] of Object.entries(ko)) {
        expect(value.trim(), `ko ${key}`).not.toBe("");
        expect(en[key].trim(), `en ${key}`).not.toBe("");
        expect(vars(value), `placeholders of ${key}`).toEqual(vars(en[key]));
      }
    });
  }

  it("every translation key used in app code exists", () => {
    const en = load("en", "common.json");
    // The console's files are reached as admin.<file>.<key> (the `admin` namespace, app/i18n/resources.ts).
    for (const file of list("en").filter((f) => f.startsWith("admin-")))
      for (const [k, v] of Object.entries(load("en", file))) en[`admin.${file.slice(6, -5)}.${k}`] = v;
    const keys = new Set(Object.keys(en).map((k) => k.replace(/_(one|other)$/, "")));
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(entry.name)) {
          const src = fs.readFileSync(p, "utf8");
          for (const m of src.matchAll(/\bt\(\s*"([a-zA-Z0-9_.]+)"/g)) used.add(m[1]);
          for (const m of src.matchAll(/Key:\s*"([a-zA-Z0-9_.]+)"/g)) used.add(m[1]);
        }
      }
    };
    walk(path.resolve("app"));
    const missing = [...used].filter((k) => !keys.has(k));
    expect(missing).toEqual([]);
  });
});
