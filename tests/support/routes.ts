import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The store's addresses read from the code rather than listed by hand: the page routes of the built app
 * (`build/index.js`, made by `npx remix build`, exports `routes` with path and parentId) and the query names each
 * route module (and its layouts) reads with `searchParams.get("...")`. A new route is walked the day it is added.
 */

const ROOT = path.resolve(".");

interface BuildRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: Record<string, unknown>;
}

export interface PageRoute {
  /** The route id in the build (routes/_store.cart, embedded-pay-detail...). */
  id: string;
  /** The full address pattern: /list/:space/:id, /mypage/sw/pay/:id, /* for the catch-all. */
  pattern: string;
  /** Its dynamic segments in order (`*` for a splat). */
  params: string[];
  action: boolean;
  /** The route module's source file, relative to the repository. */
  file: string;
  /** Query names read by the module or its layouts (names a schema reads from the whole query are not listed). */
  queryNames: string[];
}

export const paramsOf = (pattern: string) =>
  pattern
    .split("/")
    .filter((s) => s.startsWith(":") || s === "*")
    .map((s) => (s === "*" ? "*" : s.slice(1)));

/** A pattern with its segments filled (a splat as given, other segments encoded). */
export function fill(pattern: string, values: Record<string, string>): string {
  return pattern
    .split("/")
    .map((seg) => (seg === "*" ? values["*"] : seg.startsWith(":") ? encodeURIComponent(values[seg.slice(1)]) : seg))
    .join("/");
}

/** Route ids defined in remix.config.js (the webview tree) and their files. */
function configuredFiles(): Map<string, string> {
  const text = fs.readFileSync(path.join(ROOT, "remix.config.js"), "utf8");
  const out = new Map<string, string>();
  for (const m of text.matchAll(/route\(\s*"[^"]*"\s*,\s*"([^"]+)"\s*,\s*\{[^}]*\bid:\s*"([^"]+)"/g)) out.set(m[2], `app/${m[1]}`);
  return out;
}

/** The leaf routes of the built app (a layout is reached through its children), with their full address patterns. */
export async function pageRoutes(): Promise<PageRoute[]> {
  const buildFile = path.join(ROOT, "build/index.js");
  if (!fs.existsSync(buildFile)) throw new Error("build/index.js is missing: run `npx remix build` first");
  const build = (await import(pathToFileURL(buildFile).href)) as { routes: Record<string, BuildRoute> };
  const all = build.routes;
  const configured = configuredFiles();
  const fileOf = (id: string) => {
    if (configured.has(id)) return configured.get(id) as string;
    const base = id === "root" ? "app/root" : `app/${id}`;
    const ext = [".tsx", ".ts"].find((e) => fs.existsSync(path.join(ROOT, base + e)));
    if (!ext) throw new Error(`no source file for route ${id}`);
    return base + ext;
  };
  const names = (file: string) =>
    [...fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(/(?:searchParams|query)\.get\("([^"]+)"\)/g)].map((m) => m[1]);
  const chain = (id: string): string[] => (all[id].parentId ? [id, ...chain(all[id].parentId as string)] : [id]);
  const fullPath = (id: string) =>
    chain(id)
      .reverse()
      .map((r) => all[r].path ?? "")
      .filter(Boolean)
      .join("/");
  return Object.values(all)
    .filter((r) => !Object.values(all).some((c) => c.parentId === r.id))
    .map((r) => {
      const pattern = `/${fullPath(r.id)}`;
      return {
        id: r.id,
        pattern,
        params: paramsOf(pattern),
        action: "action" in r.module,
        file: fileOf(r.id),
        queryNames: [...new Set(chain(r.id).flatMap((a) => names(fileOf(a))))],
      };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** The API door is a page route (api/v1/*); its endpoints are walked from app/api/routes.server.ts instead. */
export const isApiDoor = (r: PageRoute) => r.pattern === "/api/v1/*";
