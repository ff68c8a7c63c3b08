import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ADMIN_PARAMS } from "./admin-samples";

/**
 * Every address the store answers, enumerated from the code rather than listed by hand: the page routes from the
 * built server bundle (`build/index.js` exports `routes` with path and parentId), the API routes from the table in
 * `app/api/routes.server.ts`. The fuzz and authorization specs both walk these lists, so a new route is exercised
 * the day it is added, and a route whose parameters they cannot fill fails them until it is described here.
 */

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface PageRoute {
  /** The route id in the build (routes/_store.cart, embedded-pay-detail...). */
  id: string;
  /** The full address pattern: /list/:space/:id, /mypage/sw/pay/:id, /* for the catch-all. */
  pattern: string;
  /** Its dynamic segments in order (`*` for a splat). */
  params: string[];
  loader: boolean;
  action: boolean;
  /** The route module's source file, relative to the repository. */
  file: string;
  /** The search parameters the module (or its layouts) reads by name. */
  queryNames: string[];
}

export interface ApiEndpoint {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** As in the route table: contents/:id */
  path: string;
  params: string[];
}

interface BuildRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: Record<string, unknown>;
}

const paramsOf = (pattern: string) =>
  pattern
    .split("/")
    .filter((s) => s.startsWith(":") || s === "*")
    .map((s) => (s === "*" ? "*" : s.slice(1)));

/** Route ids defined in remix.config.js (the webview tree) and the files they name. */
function configuredFiles(): Map<string, string> {
  const text = fs.readFileSync(path.join(ROOT, "remix.config.js"), "utf8");
  const out = new Map<string, string>();
  for (const m of text.matchAll(/route\(\s*"[^"]*"\s*,\s*"([^"]+)"\s*,\s*\{[^}]*\bid:\s*"([^"]+)"/g)) out.set(m[2], `app/${m[1]}`);
  return out;
}

function sourceFile(id: string, configured: Map<string, string>): string {
  if (configured.has(id)) return configured.get(id) as string;
  const base = id === "root" ? "app/root" : `app/${id}`;
  for (const ext of [".tsx", ".ts"]) if (fs.existsSync(path.join(ROOT, base + ext))) return base + ext;
  throw new Error(`no source file for route ${id}`);
}

/** Names read with searchParams.get("x") / query.get("x") in one file. */
function namesReadIn(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(/(?:searchParams|query)\.get\("([^"]+)"\)/g)].map((m) => m[1]);
}

/**
 * Names read by modules the routes share (language, permalink restoring, page numbers...) and by schemas that
 * parse the whole query at once (Object.fromEntries(searchParams)): the search filter, list and paging queries.
 */
export const SHARED_QUERY_NAMES = [
  "language",
  "user_type",
  "market-query",
  "page",
  "sort",
  "type",
  "code",
  "text",
  "keywords",
  "price",
  "categorys",
  "offset",
  "limit",
  "duration",
  "duration_start",
  "duration_end",
  "audioType",
  "bpm",
  "bpm_start",
  "bpm_end",
  "ai",
  "redirectTo",
  "space",
  "group_id",
  "contents_type",
  "free_type",
  "cate1",
  "contents_code",
  "status",
  "serial",
  "email",
  "keyword",
  "item_type",
  "from",
  "to",
  // The representative's request list (requestListPage, and the API's list schema).
  "state",
];

let pageCache: PageRoute[] | undefined;

/** The page routes of the built app (run `npx remix build` first), one per distinct address pattern. */
export async function pageRoutes(): Promise<PageRoute[]> {
  if (pageCache) return pageCache;
  const buildFile = path.join(ROOT, "build/index.js");
  if (!fs.existsSync(buildFile)) throw new Error("build/index.js is missing: run `npx remix build` first");
  const build = (await import(pathToFileURL(buildFile).href)) as { routes: Record<string, BuildRoute> };
  const all = build.routes;
  const configured = configuredFiles();
  const fullPath = (id: string): string => {
    const r = all[id];
    const own = r.path ?? "";
    const parent = r.parentId ? fullPath(r.parentId) : "";
    return [parent, own].filter(Boolean).join("/");
  };
  const ancestors = (id: string): string[] =>
    all[id].parentId ? [all[id].parentId as string, ...ancestors(all[id].parentId as string)] : [];
  const byPattern = new Map<string, PageRoute>();
  for (const r of Object.values(all)) {
    if (!("loader" in r.module) && !("action" in r.module)) continue;
    const hasChildren = Object.values(all).some((c) => c.parentId === r.id);
    // A layout is reached through its children (its index route answers its own address).
    if (hasChildren) continue;
    const pattern = `/${fullPath(r.id)}`;
    const file = sourceFile(r.id, configured);
    const names = new Set([...namesReadIn(file), ...ancestors(r.id).flatMap((a) => namesReadIn(sourceFile(a, configured)))]);
    byPattern.set(pattern, {
      id: r.id,
      pattern,
      params: paramsOf(pattern),
      loader: "loader" in r.module,
      action: "action" in r.module,
      file,
      queryNames: [...names].sort(),
    });
  }
  pageCache = [...byPattern.values()].sort((a, b) => a.pattern.localeCompare(b.pattern));
  return pageCache;
}

let apiCache: ApiEndpoint[] | undefined;

/**
 * The API's route table (app/api/routes.server.ts), as the router matches it. Read in a child process run the way
 * the server runs (node --import tsx): the table's imports reach the whole domain core, which Playwright's own
 * loader cannot load (JSON modules without import attributes).
 */
export async function apiEndpoints(): Promise<ApiEndpoint[]> {
  if (apiCache) return apiCache;
  const script = `const { routes } = await import("./app/api/routes.server.ts");
process.stdout.write(JSON.stringify(routes.map((r) => [r.method, r.path])));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const table = JSON.parse(out) as [ApiEndpoint["method"], string][];
  apiCache = table.map(([method, p]) => ({ method, path: p, params: paramsOf(p) }));
  return apiCache;
}

/** Every search parameter name any module reads, plus the shared ones: the fuzz sets them all at once. */
export async function allQueryNames(): Promise<string[]> {
  const names = new Set(SHARED_QUERY_NAMES);
  for (const r of await pageRoutes()) for (const n of r.queryNames) names.add(n);
  const apiDir = path.join(ROOT, "app/api");
  for (const f of fs.readdirSync(apiDir)) for (const n of namesReadIn(`app/api/${f}`)) names.add(n);
  return [...names].sort();
}

/** The API door itself is a page route (api/v1/*); both specs reach it through the API table instead. */
export const API_PREFIX = "/api/v1/";
export const isApiDoor = (r: PageRoute) => r.pattern === "/api/v1/*";

/**
 * A plausible value of every dynamic segment, by route id: what a real visitor's address would hold. A route
 * with a segment missing here fails both specs (describe it here when adding the route).
 */
export const PLAUSIBLE_PARAMS: Record<string, Record<string, string>> = {
  ...ADMIN_PARAMS,
  "routes/_store.$category": { category: "video" },
  "routes/_store.list.$space.$id": { space: "video", id: "all" },
  "routes/_store.contents.$type": { type: "video" },
  "routes/_store.search.$type": { type: "all" },
  "routes/_store.price.$type": { type: "audio-bgm" },
  "routes/_store.notice.$id": { id: "1" },
  "routes/_store.event.$id": { id: "1" },
  "routes/_store.mypage.qna.$id": { id: "1" },
  "routes/mypage.qna.$id.attachment": { id: "1" },
  "routes/_store.outbox.$id": { id: "1" },
  "routes/outbox.$id.eml": { id: "1" },
  "routes/_store.mypage.pay.$id": { id: "1" },
  "routes/_store.mypage.purchase.$id": { id: "1" },
  "routes/mypage.certificate.$id": { id: "1" },
  "routes/mypage.certificate-pdf.$id": { id: "1" },
  "routes/sandbox.pay.$id": { id: "MKT-20260101-0000ABCD" },
  "routes/files.$token": { token: "Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA" },
  "routes/locales.$lng.$ns": { lng: "en", ns: "cart" },
  "routes/webhooks.payments.$gateway": { gateway: "sandbox" },
  "routes/api.v1.$": { "*": "health" },
  "routes/$": { "*": "no/such/page" },
  "embedded-pay-detail": { id: "1" },
  "embedded-certificate": { id: "1" },
  "routes/_store.mypage.order.$id": { id: "1" },
  "routes/mypage.order.$id.certificate.$line": { id: "1", line: "1" },
};

/** Plausible values of the API's dynamic segments, by route path. */
export const PLAUSIBLE_API_PARAMS: Record<string, Record<string, string>> = {
  "banners/:id": { id: "home" },
  "keyvisuals/:id": { id: "video" },
  "keywords/:id": { id: "audio" },
  "contents/:id/related": { id: "VI0000006" },
  "contents/:id": { id: "6" },
  "font/:id": { id: "FO0000085" },
  "search/:type": { type: "all" },
  "users/orders/:id": { id: "1" },
  "requests/:id": { id: "1" },
  "notice/:id": { id: "1" },
  "support/qna/:id": { id: "1" },
  "pboard/event/:id": { id: "1" },
};

/** Segments with no value in the tables above (the specs fail on them). */
export async function unfilledParams(): Promise<string[]> {
  const missing: string[] = [];
  for (const r of await pageRoutes())
    for (const p of r.params) if (PLAUSIBLE_PARAMS[r.id]?.[p] === undefined) missing.push(`page ${r.id} :${p}`);
  for (const e of await apiEndpoints())
    for (const p of e.params) if (PLAUSIBLE_API_PARAMS[e.path]?.[p] === undefined) missing.push(`api ${e.method} ${e.path} :${p}`);
  return missing;
}

/** A pattern with its segments filled (values are inserted as given: callers pass them already encoded). */
export function fill(pattern: string, values: Record<string, string>): string {
  return pattern
    .split("/")
    .map((seg) => {
      if (seg === "*") return values["*"];
      if (!seg.startsWith(":")) return seg;
      const v = values[seg.slice(1)];
      if (v === undefined) throw new Error(`no value for ${seg} in ${pattern}`);
      return v;
    })
    .join("/");
}
