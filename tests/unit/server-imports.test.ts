import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Values imported from *.server modules are stripped from the browser bundle, so a component that uses one
 * crashes after hydration (it happened twice). Route modules may import them only for their loader/action;
 * this test finds the imported names and fails when one is used inside JSX or a component body, which we
 * approximate by: any imported name from a .server module used after the default export starts.
 */
describe("server-only values never reach components", () => {
  const dir = path.resolve("app");
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx$/.test(e.name) && !e.name.includes(".server.")) files.push(p);
    }
  };
  walk(dir);
  for (const file of files) {
    it(path.relative(dir, file), () => {
      const src = fs.readFileSync(file, "utf8");
      const imported = [...src.matchAll(/import\s+\{([^}]+)\}\s+from\s+"[^"]+\.server"/g)]
        .flatMap((m) => m[1].split(","))
        .map((n) => n.trim())
        .filter((n) => n && !n.startsWith("type "))
        .map((n) => n.split(" as ").pop()?.trim() as string);
      const body = src.slice(src.indexOf("export default function") >= 0 ? src.indexOf("export default function") : src.length);
      const used = imported.filter((name) => new RegExp(`(?<![.\\w"'])${name}\\b`).test(body));
      expect(used, "server-only imports used by the component").toEqual([]);
    });
  }
});
