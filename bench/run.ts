// npm run bench: the store's HTTP figures in one run, one table.
//
// Expects a build (`npx remix build`). Starts the real server as `npm run serve` does (node flags and environment
// read from package.json's "serve" script; NODE_ENV=production) on a SEED_SIZE-item SQLite catalog kept under
// .cache/bench/seed-<SEED_SIZE>/ (the first run seeds it through the server's first start, some two minutes for
// 100,000 items; later runs reuse it), signs the demo member in, and loads with autocannon (bench/http.ts), one
// kind of request after the other at BENCH_CONNECTIONS connections for BENCH_SECONDS each (after BENCH_WARMUP
// seconds of the same load, not counted):
//   floor       a minimal Remix resource route (/api/v1/health), at the start and again at the end
//   anonymous   home, a landing, a list, 400 item pages, 192 searches (served by the page micro-cache)
//   member      the same pages signed in as the demo member (pages shared by members, with the member's parts
//               filled in per response), and the item pages rendered for the member alone ("uncached")
//   API         the search API; a download: the editor's token request (POST) and the file it links to
//   fresh       pages no page cache can answer: the member's own pages (cart, My page home, payment history,
//               downloads, favourites, passes) and the editor's webview pages (/mypage/sw: home, pay, download,
//               benefit, request), each connection asking them in an order of its own; item pages and searches
//               over a long tail, each connection walking a disjoint slice of the catalog (every item but the
//               400 most popular) or of some 5,000 searches (words x types x orders x prices x pages), so that
//               no page is asked twice in the row (bench/http.ts Walk)
// Before a row of pages is measured, each of its pages is asked on new connections until every worker's page cache
// holds it (bench/http.ts prime): figures for warm caches, as a store serves its pages most of the time; the
// "uncached" and fresh rows are not primed. It samples the resident memory of the server (and of its workers, when
// WEB_CONCURRENCY starts some) every 250 ms. Each row has requests/s, p50/p95/p99 in ms, errors, the ratio of its requests/s to the floor's (the
// mean of the two floor rows: on a shared machine, compare ratios within one run), the server's CPU time per
// request (user + system of the primary and its workers from /proc/<pid>/stat over the measured window, divided by
// the requests answered in it), the share of answers the page cache gave (X-Cache: HIT or STALE) and the peak RSS
// during it. Errors are answers outside 200-299 (a redirect to the sign-in page is one), network errors and timeouts.
//
//   npx remix build && npm run bench
//
// Settings: SEED_SIZE (100000), BENCH_SECONDS (8), BENCH_WARMUP (2), BENCH_CONNECTIONS (32), BENCH_PORT (3320),
// BENCH_ONLY (row names separated by commas, e.g. "floor,member detail"; "fresh" for the fresh rows), BENCH_NODE_ARGS (extra node flags for
// the server, e.g. "--cpu-prof --cpu-prof-dir=.cache/prof"), BENCH_SERVER_ENV ("NAME=value ..." for the server),
// BENCH_JSON (a file to write the figures to; .cache/bench/last.json by default). WEB_CONCURRENCY and every other
// variable of the environment reach the server as they are.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { SEARCH_TYPES, SORTS } from "../app/market/search/filters";
import { type Ask, type LoadResult, load, prime, type Walk } from "./http";
import { AUDIO_PAGE_FILTERS, WORDS } from "./queries";
import { startBenchServer, workersOf } from "./serve";

const size = Number(process.env.SEED_SIZE ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const port = Number(process.env.BENCH_PORT ?? 3320);
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(",").map((s) => s.trim()) : null;
const extraNodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
const extraEnv = Object.fromEntries(
  (process.env.BENCH_SERVER_ENV ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);
const jsonFile = process.env.BENCH_JSON ?? ".cache/bench/last.json";
const base = `http://127.0.0.1:${port}`;
const dir = path.resolve(".cache/bench", `seed-${size}`);
const DEMO_MEMBER = { email: "member@example.com", password: "market1234!" };
const DEMO_LICENSE = { license_id: "VEDT-IND-0001-DEMO", hw_info: "HW-DEMO-IND-0001" };

if (!fs.existsSync("build/index.js")) {
  console.error("bench/run.ts: no build/index.js; run `npx remix build` first");
  process.exit(1);
}
fs.mkdirSync(dir, { recursive: true });

// --- the server -------------------------------------------------------------------------------------------

/** Resident memory in MiB of the server and its workers together (not the seed child or esbuild). */
function rssOf(pid: number): number {
  let kb = 0;
  for (const p of [pid, ...workersOf(pid)]) {
    try {
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return Math.round((kb / 1024) * 10) / 10;
}

/** Clock ticks a second of /proc/<pid>/stat's CPU times. */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user + system), in ms, or null when it is gone. */
function cpuMsOf(p: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
    // The fields after the command's name (in parentheses, which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** The server's CPU time in ms (primary and workers), counted from each process's own start; a worker that
 * starts later adds all of its time, one that exits keeps what was read of it. Only differences are meaningful. */
const cpuSeen = new Map<number, number>();
let cpuTotal = 0;
function serverCpuMs(pid: number): number {
  for (const p of [pid, ...workersOf(pid)]) {
    const ms = cpuMsOf(p);
    if (ms === null) continue;
    cpuTotal += ms - (cpuSeen.get(p) ?? 0);
    cpuSeen.set(p, ms);
  }
  return cpuTotal;
}

const server = await startBenchServer({ name: "bench/run.ts", port, dir, size, extraNodeArgs, extraEnv });
const pid = server.pid;

// --- what is asked for --------------------------------------------------------------------------------------

const sqlite = new SQLite(path.join(dir, "market.sqlite"), { readonly: true });
const details = (
  sqlite.prepare("SELECT code, contents_type FROM contents WHERE status = 'active' ORDER BY popularity DESC LIMIT 400").all() as {
    code: string;
    contents_type: string;
  }[]
).map((r) => `/contents/${r.contents_type}?code=${r.code}`);
const category = sqlite.prepare("SELECT id FROM taxonomy WHERE kind = 'category' AND space = 'audio' LIMIT 1").get() as { id: number };
// A free item with a file, small enough that the download row measures the store, not the disk.
const freeItem = sqlite
  .prepare(
    "SELECT code, file_path FROM contents WHERE status = 'active' AND price_type = 'free' AND file_path IS NOT NULL AND contents_type = 'icon' LIMIT 1",
  )
  .get() as { code: string; file_path: string };
// The long tail of item pages: every active item but the 400 most popular (which the cached rows ask).
const popular = new Set(details);
const tailItems = (
  sqlite.prepare("SELECT code, contents_type FROM contents WHERE status = 'active' ORDER BY id").all() as {
    code: string;
    contents_type: string;
  }[]
)
  .map((r) => `/contents/${r.contents_type}?code=${r.code}`)
  .filter((page) => !popular.has(page));
sqlite.close();
const fileBytes = fs.statSync(path.join(dir, "storage", freeItem.file_path)).size;
const searches = AUDIO_PAGE_FILTERS.flatMap((filter) => WORDS.map((w) => `/search/audio?keywords=${encodeURIComponent(w)}&${filter}`));
// The long tail of searches: each word on each type's page, in each order, price filter and first two pages (48 x 6
// x 3 x 3 x 2 = 5,184 distinct addresses).
const tailSearches = WORDS.flatMap((w) =>
  SEARCH_TYPES.flatMap((type) =>
    SORTS.flatMap((sort) =>
      [1, 2, 3].flatMap((price) =>
        [1, 2].map((page) => `/search/${type}?keywords=${encodeURIComponent(w)}&sort=${sort}&price=${price}&page=${page}`),
      ),
    ),
  ),
);
const apiSearches = WORDS.map((w, i) => `/api/v1/search/${i % 2 ? "audio" : "all"}?keywords=${encodeURIComponent(w)}`);

async function signIn(): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams(DEMO_MEMBER),
  });
  if (res.status !== 302) throw new Error(`sign-in of ${DEMO_MEMBER.email}: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
}
const memberCookie = await signIn();

/** The editor's hand-off: its first request to /mypage/sw carries the licence headers; the store answers with a
 * cookie scoped to /mypage/sw that the webview's further pages send instead (app/embedded/licence.server.ts). */
async function openWebview(): Promise<string> {
  const res = await fetch(`${base}/mypage/sw/home`, { redirect: "manual", headers: { ...DEMO_LICENSE, "accept-language": "en" } });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
  if (res.status !== 200 || !cookie) throw new Error(`the webview's hand-off for ${DEMO_LICENSE.license_id}: ${res.status}`);
  return cookie;
}
const webviewCookie = await openWebview();
// Browsers ask for compressed pages; the language is fixed so every row renders the same locale.
const browser = { "accept-encoding": "gzip, deflate, br", "accept-language": "en-US,en;q=0.9", "user-agent": "Mozilla/5.0 bench" };
const member = { ...browser, cookie: memberCookie };

// The editor's download: a token request for a free item, then the file it links to (the next request uses the
// link the previous answer gave).
const download: Ask[] = [
  {
    method: "POST",
    path: "/api/v1/contents/downloads/free",
    headers: { ...browser, ...DEMO_LICENSE, "content-type": "application/json" },
    body: JSON.stringify({ contents_list: [{ item_code: freeItem.code }] }),
    onResponse: (_status, body, context) => {
      try {
        context.url = (JSON.parse(body) as { data?: { granted?: { url: string }[] } }).data?.granted?.[0]?.url;
      } catch {
        context.url = undefined;
      }
    },
  },
  {
    method: "GET",
    headers: browser,
    setupRequest: (request, context) => (typeof context.url === "string" ? { ...request, path: context.url } : null),
  },
];

// --- fresh pages: each connection its own list (bench/http.ts Walk) ----------------------------------------------

/** A seeded pseudo-random generator (mulberry32), so each run deals the same lists. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function shuffled<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
/** A few pages, each connection asking all of them in an order of its own (distinct orders while there are enough). */
function ownOrders(pages: string[], seed: number): Walk {
  const next = random(seed);
  const lists: string[][] = [];
  const seen = new Set<string>();
  for (let tries = 0; lists.length < connections && tries < 10_000; tries++) {
    const order = shuffled(pages, next);
    if (seen.has(order.join(" ")) && tries < 1_000) continue;
    seen.add(order.join(" "));
    lists.push(order);
  }
  return { lists };
}
/** Many pages shuffled, then cut into one disjoint slice per connection, each walked in order. */
function slices(pages: string[], seed: number): Walk {
  const all = shuffled(pages, random(seed));
  const per = Math.ceil(all.length / connections);
  return { lists: Array.from({ length: connections }, (_, i) => all.slice(i * per, (i + 1) * per)).filter((l) => l.length > 0) };
}
const memberPages = ["/cart", "/mypage/home", "/mypage/pay", "/mypage/download", "/mypage/interest", "/mypage/passes"];
const webviewPages = ["home", "pay", "download", "benefit", "request"].map((p) => `/mypage/sw/${p}`);

const landing = "/audio";
const list = `/list/audio/${category.id}`;
const rows: {
  name: string;
  asks: Ask[] | Walk;
  headers: Record<string, string>;
  note?: string;
  cold?: boolean;
  fresh?: boolean;
  once?: boolean;
}[] = [
  { name: "floor", asks: ["/api/v1/health"], headers: browser, note: "Remix resource route" },
  { name: "anonymous home", asks: ["/"], headers: browser },
  { name: "anonymous landing", asks: [landing], headers: browser },
  { name: "anonymous list", asks: Array.from({ length: 20 }, (_, i) => `${list}?page=${i + 1}`), headers: browser },
  { name: "anonymous detail", asks: details, headers: browser, note: "400 items" },
  { name: "anonymous search", asks: searches, headers: browser, note: "192 searches" },
  { name: "member home", asks: ["/"], headers: member },
  { name: "member landing", asks: [landing], headers: member },
  { name: "member list", asks: Array.from({ length: 20 }, (_, i) => `${list}?page=${i + 1}`), headers: member },
  { name: "member detail", asks: details, headers: member, note: "400 items" },
  { name: "member search", asks: searches, headers: member, note: "192 searches" },
  // The same item pages rendered for the member alone (a cookie the store does not know keeps a page out of the
  // shared cache): what a render costs.
  {
    name: "member detail uncached",
    asks: details,
    headers: { ...member, cookie: `${memberCookie}; unshared=1` },
    note: "rendered per request",
    cold: true,
  },
  { name: "search API", asks: apiSearches, headers: browser, note: "48 words" },
  { name: "download", asks: download, headers: browser, note: `token + ${Math.round(fileBytes / 1024)} KiB file` },
  // Fresh: pages no page cache can answer (rendered for their visitor, or asked once in the row).
  {
    name: "member own pages",
    asks: ownOrders(memberPages, 1),
    headers: member,
    note: "fresh: cart, My page home, payments, downloads, favourites, passes",
    fresh: true,
  },
  {
    name: "webview pages",
    asks: ownOrders(webviewPages, 2),
    headers: { ...browser, cookie: webviewCookie },
    note: "fresh: /mypage/sw home, pay, download, benefit, request",
    fresh: true,
  },
  {
    name: "anonymous detail long tail",
    asks: slices(tailItems, 3),
    headers: browser,
    note: `fresh: ${tailItems.length.toLocaleString("en")} items, once each`,
    fresh: true,
    once: true,
  },
  {
    name: "anonymous search long tail",
    asks: slices(tailSearches, 4),
    headers: browser,
    note: `fresh: ${tailSearches.length.toLocaleString("en")} searches, once each`,
    fresh: true,
    once: true,
  },
  { name: "floor (again)", asks: ["/api/v1/health"], headers: browser },
];

// --- the run ------------------------------------------------------------------------------------------------

const idleRss = rssOf(pid);
let peak = idleRss;
let rowPeak = idleRss;
const sampler = setInterval(() => {
  const rss = rssOf(pid);
  peak = Math.max(peak, rss);
  rowPeak = Math.max(rowPeak, rss);
}, 250);
const results: { name: string; note?: string; fresh: boolean; result: LoadResult; rssPeak: number }[] = [];
for (const row of rows) {
  const chosen =
    !only || only.includes(row.name) || (row.name.startsWith("floor") && only.includes("floor")) || (row.fresh && only.includes("fresh"));
  if (!chosen) continue;
  rowPeak = rssOf(pid);
  // Pages are measured as a store serves its pages most of the time: each is first asked on new connections until
  // every worker's page cache holds it (a cache per worker). Rows marked cold are not primed.
  const pages = Array.isArray(row.asks) ? row.asks.filter((ask): ask is string => typeof ask === "string" && !ask.startsWith("/api/")) : [];
  if (!row.cold && !row.fresh && pages.length > 0)
    await prime(base, pages, { headers: row.headers, times: 2 * Math.max(1, workersOf(pid).length) });
  const result = await load(base, row.asks, { connections, seconds, warmupSeconds, headers: row.headers, cpuTime: () => serverCpuMs(pid) });
  results.push({ name: row.name, note: row.note, fresh: Boolean(row.fresh), result, rssPeak: rowPeak });
  const odd = [
    result.errors ? `${result.errors} errors ${JSON.stringify(result.statuses)} e.g. ${JSON.stringify(result.failures?.slice(0, 3))}` : "",
    row.fresh && result.cacheHits ? `${result.cacheHits} answers from the page cache` : "",
    row.once && result.repeated ? `${result.repeated} pages asked again` : "",
  ].filter(Boolean);
  console.error(
    `${row.name}: ${result.rps}/s p95 ${result.p95} ms, ${result.cpuMsPerRequest} ms CPU/request${odd.length ? `; ${odd.join("; ")}` : ""}`,
  );
}
clearInterval(sampler);
const finalRss = rssOf(pid);
const processes = 1 + workersOf(pid).length;
server.stop();

// --- the table ----------------------------------------------------------------------------------------------

const floors = results.filter((r) => r.name.startsWith("floor")).map((r) => r.result.rps);
const floor = floors.length ? floors.reduce((a, b) => a + b, 0) / floors.length : Number.NaN;
const ratio = (rps: number) => (Number.isFinite(floor) ? Math.round((rps / floor) * 100) / 100 : null);
const header = ["", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors", "× floor", "CPU ms/req", "cache hits", "RSS MiB", ""];
const lines = results.map((r) => [
  r.name,
  String(r.result.rps),
  String(r.result.p50),
  String(r.result.p95),
  String(r.result.p99),
  String(r.result.errors),
  ratio(r.result.rps)?.toFixed(2) ?? "-",
  r.result.cpuMsPerRequest?.toFixed(2) ?? "-",
  r.result.requests ? `${Math.round((r.result.cacheHits / r.result.requests) * 100)}%` : "-",
  String(r.rssPeak),
  r.note ?? "",
]);
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
const format = (cells: string[]) =>
  cells
    .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
    .join("  ")
    .trimEnd();
const webConcurrency = process.env.WEB_CONCURRENCY ?? extraEnv.WEB_CONCURRENCY;
console.log(
  `${new Date().toISOString()}  node ${process.version}  ${os.cpus().length} cpus  ${size} items  ${connections} connections  ` +
    `${seconds} s per row (after ${warmupSeconds} s warm-up)  WEB_CONCURRENCY=${webConcurrency ?? "unset"}  server processes: ${processes}`,
);
console.log(format(header));
for (const l of lines) console.log(format(l));
console.log(`server RSS: idle ${idleRss} MiB, peak ${peak} MiB, final ${finalRss} MiB (with its workers, if any)`);

const out = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  seedSize: size,
  connections,
  seconds,
  warmupSeconds,
  webConcurrency: webConcurrency ?? null,
  serverProcesses: processes,
  serverArgs: server.args,
  serverEnv: server.env,
  floorRps: Number.isFinite(floor) ? Math.round(floor) : null,
  rows: results.map((r) => ({
    name: r.name,
    note: r.note,
    fresh: r.fresh,
    ...r.result,
    ratioToFloor: ratio(r.result.rps),
    rssPeakMiB: r.rssPeak,
  })),
  rssMiB: { idle: idleRss, peak, final: finalRss },
};
fs.mkdirSync(path.dirname(path.resolve(jsonFile)), { recursive: true });
fs.writeFileSync(jsonFile, JSON.stringify(out, null, 2));
process.exit(0);
