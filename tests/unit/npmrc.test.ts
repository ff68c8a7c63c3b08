import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The project's .npmrc holds only settings npm itself defines (issue 18, point 15): `nodedir` (a node-gyp option)
 * made npm warn "Unknown project config" on install; node-gyp finds Node's headers through scripts/node-headers.sh.
 */
describe(".npmrc", () => {
  it("has only keys npm knows", () => {
    const keys = readFileSync(".npmrc", "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#") && !line.startsWith(";"))
      .map((line) => line.split("=")[0].trim());
    const root = execFileSync("npm", ["root", "-g"], { encoding: "utf8" }).trim();
    const { definitions } = createRequire(import.meta.url)(join(root, "npm", "node_modules", "@npmcli", "config", "lib", "definitions"));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => !(key in definitions))).toEqual([]);
  });
});
