// Which namespaces of strings (app/i18n/namespaces.ts) each route's code can show: the route module and every module it imports for the browser, and the server modules it imports
// itself (whose messages reach the page as data). Used by tests/unit/route-namespaces.test.ts.
import fs from "node:fs";
import path from "node:path";
import { readConfig } from "@remix-run/dev/dist/config.js";
import * as esbuild from "esbuild";
import { splitKey } from "../app/i18n/namespaces";

export type RouteUsage = { id: string; file: string; parentId?: string; namespaces: string[] };

const APP = path.resolve("app");

/** Every key of a bundle, joined by '.', plural suffixes kept. */
function keysOf(bundle: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(bundle).flatMap(([k, v]) =>
    typeof v === "object" && v !== null ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

export function groupsIn(source: string, keys: Set<string>, prefixes: Set<string>): Set<string> {
  const found = new Set<string>();
  // A whole key in quotes: "cart.title" (also a plural's base: "cart.items" for cart.items_one). Not a subtree's
  // name ("orders.status" is also a column in a query).
  for (const m of source.matchAll(/["'`]([a-zA-Z][\w-]*(?:\.[\w-]+)+)["'`]/g)) {
    const key = m[1];
    if (keys.has(key) || keys.has(`${key}_other`)) found.add(splitKey(key)[0]);
  }
  // The start of a key built from parts: `price.group.${group}`, "status." + state.
  for (const m of source.matchAll(/(?:`([a-zA-Z][\w-]*(?:\.[\w-]+)*\.)\$\{|["']([a-zA-Z][\w-]*(?:\.[\w-]+)*\.)["']\s*\+)/g)) {
    const prefix = m[1] ?? m[2];
    if (prefixes.has(prefix)) found.add(splitKey(`${prefix}x`)[0]);
  }
  return found;
}

export async function routeUsage(bundle: Record<string, unknown>): Promise<RouteUsage[]> {
  const keys = new Set(keysOf(bundle));
  const prefixes = new Set<string>();
  for (const key of keys) {
    const parts = key.split(".");
    for (let i = 1; i < parts.length; i++) prefixes.add(`${parts.slice(0, i).join(".")}.`);
  }
  const config = await readConfig(process.cwd());
  return Promise.all(
    Object.values(config.routes).map(async (route): Promise<RouteUsage> => {
      const entry = path.join(APP, route.file);
      const result = await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        platform: "browser",
        format: "esm",
        packages: "external",
        logLevel: "silent",
        loader: { ".css": "empty", ".svg": "empty", ".png": "empty", ".json": "json" },
        alias: { "~": APP },
        plugins: [
          {
            name: "server-modules",
            setup(build) {
              // A server module is not in the browser's code; the route's own server imports are read below.
              build.onResolve({ filter: /\.server(\.[jt]sx?)?$/ }, () => ({ path: "server", namespace: "empty" }));
              build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "module.exports = {};", loader: "js" }));
            },
          },
        ],
      });
      // The bundle's text (esbuild keeps no comments), and the route's own server imports, compiled the same way.
      const texts = [result.outputFiles[0].text];
      const own = fs.readFileSync(entry, "utf8");
      for (const m of own.matchAll(/from\s+["']([^"']+\.server)["']/g)) {
        const target = path.resolve(path.dirname(entry), m[1]);
        for (const ext of [".ts", ".tsx"])
          if (fs.existsSync(target + ext))
            texts.push((await esbuild.transform(fs.readFileSync(target + ext, "utf8"), { loader: ext === ".tsx" ? "tsx" : "ts" })).code);
      }
      const groups = new Set<string>();
      for (const text of texts) for (const g of groupsIn(text, keys, prefixes)) groups.add(g);
      return { id: route.id, file: route.file, parentId: route.parentId, namespaces: [...groups].sort() };
    }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { resources, storeStrings } = await import("../app/i18n/resources");
  const usage = await routeUsage({ ...storeStrings.en, admin: resources.en.admin });
  for (const r of usage) console.log(`${r.id}\t${r.file}\t${r.parentId ?? ""}\t${r.namespaces.join(" ")}`);
}
