// npm run bench:soak: the server's memory under a long mixed load (the hardening issue's point 11).
//
// Expects a build (`npx remix build`); builds nothing itself. Starts the real server as `npm run serve` does
// (the node flags and environment of package.json's "serve" script, read from it, so the soak measures what
// production runs; NODE_ENV=production) on its own
// database under .cache/soak/seed-<SEED_SIZE>/ (seeded by the server's first start and kept for the next runs),
// drives SOAK_CONNECTIONS closed-loop connections over a mix of pages and API calls for SOAK_SECONDS, samples the
// resident memory (VmRSS in /proc/<pid>/status) of the cluster's primary and of each of its workers (the children
// of the started process that run server.ts; WEB_CONCURRENCY as the server's default, one per core, unless
// SOAK_SERVER_ENV sets it) every SOAK_SAMPLE_SECONDS, and prints start, peak, final and plateau RSS of each with
// requests/s, latency and error counts per kind of request. With WEB_CONCURRENCY=1 the one process is the server.
//
//   SEED_SIZE=100000 SOAK_SECONDS=300 npm run bench:soak
//
// Other settings: SOAK_PORT (3303), SOAK_CONNECTIONS (32), SOAK_SAMPLE_SECONDS (5), SOAK_NODE_ARGS (extra node
// flags for the server, e.g. "--heapsnapshot-signal=SIGUSR2"), SOAK_SERVER_ENV (extra server environment as
// NAME=value pairs separated by spaces, e.g. "PAGE_CACHE_MAX_MB=16"), SOAK_ACCEPT_ENCODING (what the visitors'
// browsers accept; "gzip, deflate, br" as Chromium), SOAK_JSON (a file to write the figures to).
// The load generator is a closed loop of its own (node:http with keep-alive, no pipelining) that samples memory and
// tallies page-cache hits per kind of request; bench/run.ts measures throughput with autocannon.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { AUDIO_PAGE_FILTERS, WORDS } from "./queries";
import { startBenchServer, workersOf } from "./serve";

const size = Number(process.env.SEED_SIZE ?? 100_000);
const seconds = Number(process.env.SOAK_SECONDS ?? 300);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 32);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 5);
const port = Number(process.env.SOAK_PORT ?? 3303);
const extraNodeArgs = (process.env.SOAK_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
const extraEnv = Object.fromEntries(
  (process.env.SOAK_SERVER_ENV ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);
const base = `http://127.0.0.1:${port}`;
const dir = path.resolve(".cache/soak", `seed-${size}`);
const DEMO_PASSWORD = "market1234!";
const DEMO_MEMBERS = ["member@example.com", "business@example.com"];

if (!fs.existsSync("build/index.js")) {
  console.error("bench/soak.ts: no build/index.js; run `npx remix build` first");
  process.exit(1);
}
fs.mkdirSync(dir, { recursive: true });

// --- the server -------------------------------------------------------------------------------------------

/** Resident memory of a process in MiB: total, anonymous (heap, malloc) and file-backed (code, mapped files). */
function memoryOf(pid: number): { rss: number; anon: number; file: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    const mib = (x: number) => Math.round((x / 1024) * 10) / 10;
    return { rss: mib(kb("VmRSS")), anon: mib(kb("RssAnon")), file: mib(kb("RssFile") + kb("RssShmem")) };
  } catch {
    return null;
  }
}

/** CPU time the process has used, in seconds (user + system; /proc counts in ticks of 1/100 s on Linux). */
function cpuOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const server = await startBenchServer({ name: "bench/soak.ts", port, dir, size, extraNodeArgs, extraEnv });
const pid = server.pid;

// --- what the visitors ask for -----------------------------------------------------------------------------

const sqlite = new SQLite(path.join(dir, "market.sqlite"), { readonly: true });
type Row = { code: string; contents_type: string };
const popular = sqlite
  .prepare("SELECT code, contents_type FROM contents WHERE status = 'active' ORDER BY popularity DESC LIMIT 500")
  .all() as Row[];
const everything = sqlite.prepare("SELECT code, contents_type FROM contents WHERE status = 'active'").all() as Row[];
const fonts = sqlite.prepare("SELECT code FROM contents WHERE status = 'active' AND contents_type = 'font'").all() as { code: string }[];
const groups = sqlite.prepare("SELECT id, kind, space FROM taxonomy WHERE kind IN ('category', 'genre', 'mood', 'theme')").all() as {
  id: number;
  kind: string;
  space: string;
}[];
const notices = sqlite.prepare("SELECT id FROM notices").all() as { id: number }[];
sqlite.close();
const media = ["posters", "icons", "banners"].flatMap((folder) =>
  fs.existsSync(path.join(dir, "media", folder)) ? fs.readdirSync(path.join(dir, "media", folder)).map((f) => `/media/${folder}/${f}`) : [],
);
const buildFiles = fs.existsSync("public/build")
  ? fs
      .readdirSync("public/build", { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".js"))
      .map((e) => `/build/${path.relative("public/build", path.join(e.parentPath, e.name))}`)
  : [];

/** A small deterministic generator, so that two soaks ask for the same things. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Rand = () => number;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
const detailOf = (r: Row) => `/contents/${r.contents_type}?code=${r.code}`;
const SPACES = ["video", "icon", "audio", "font", "package", "benefit"];
const LIST_SPACES = ["video", "icon", "audio", "font", "package"];
const SEARCH_TYPES = ["all", "video", "icon", "audio", "font", "package"];
const FONT_TEXTS = [
  "다람쥐 헌 쳇바퀴에 타고파",
  "The quick brown fox jumps over the lazy dog",
  "안녕하세요",
  "Hello",
  "유튜브 썸네일",
  "Sale 50%",
];

interface Visitor {
  kind: "anonymous" | "cart" | "member";
  headers: Record<string, string>;
  /** The API's credentials for this visitor (authorizationToken or ngt). */
  apiHeaders: Record<string, string>;
}

interface Ask {
  kind: string;
  path: string;
  headers?: Record<string, string>;
}

/** One request of a visitor: pages as a browser asks for them (most of them), their assets, and API calls. */
function nextAsk(rand: Rand, visitor: Visitor): Ask {
  const r = rand();
  const headers = visitor.headers;
  if (r < 0.07) return { kind: "home", path: "/", headers };
  if (r < 0.14) return { kind: "landing", path: `/${pick(rand, SPACES)}`, headers };
  if (r < 0.28) {
    const space = pick(rand, LIST_SPACES);
    const fitting = groups.filter((g) => g.space === space || ((g.kind === "genre" || g.kind === "mood") && space === "video"));
    const id = rand() < 0.3 || !fitting.length ? "all" : pick(rand, fitting).id;
    // The first pages most often; the font space has a few dozen items (two pages).
    const page = space === "font" ? 1 + Math.floor(rand() * 2) : 1 + Math.floor(rand() ** 2 * 40);
    return { kind: "list", path: `/list/${space}/${id}?page=${page}${rand() < 0.3 ? "&sort=recent" : ""}`, headers };
  }
  if (r < 0.52) {
    // Popular items most of the time, and the long tail of the catalog the rest.
    const item = rand() < 0.6 ? pick(rand, popular) : pick(rand, everything);
    return { kind: "detail", path: detailOf(item), headers };
  }
  if (r < 0.66) {
    const word = encodeURIComponent(pick(rand, WORDS));
    const type = pick(rand, SEARCH_TYPES);
    const filter = type === "audio" && rand() < 0.5 ? `&${pick(rand, AUDIO_PAGE_FILTERS)}` : rand() < 0.3 ? "&sort=recent" : "";
    const page = rand() < 0.2 ? `&page=${2 + Math.floor(rand() * 4)}` : "";
    return { kind: "search", path: `/search/${type}?keywords=${word}${filter}${page}`, headers };
  }
  if (r < 0.7) {
    const slug = pick(rand, ["", "/video", "/icon", "/audio-bgm", "/audio-se", "/audio-ai", "/font"]);
    return { kind: "price", path: `/price${slug}`, headers };
  }
  if (r < 0.73) return { kind: "notice", path: rand() < 0.4 ? "/notice" : `/notice/${pick(rand, notices).id}`, headers };
  if (r < 0.75) {
    const path = pick(rand, ["/support", "/policy", "/policy?type=privacy", "/policy?type=paid"]);
    return { kind: "support", path, headers };
  }
  if (r < 0.8 && visitor.kind === "member") {
    const path = pick(rand, ["/mypage/home", "/mypage/interest", "/cart", "/mypage/pay", "/mypage/licenses"]);
    return { kind: "mypage", path, headers };
  }
  if (r < 0.87) {
    const asset = rand() < 0.5 && buildFiles.length ? pick(rand, buildFiles) : pick(rand, media);
    return { kind: "asset", path: asset, headers: { "accept-encoding": headers["accept-encoding"] } };
  }
  // The HTTP API (the editor, scripts, the pages' own fetches).
  const api = { ...visitor.apiHeaders, language: rand() < 0.5 ? "ko" : "en" };
  const a = rand();
  let p: string;
  if (a < 0.2)
    p = `/api/v1/contents?space=${pick(rand, LIST_SPACES)}&page=${rand() < 0.5 ? "best" : "new"}&offset=${Math.floor(rand() * 10) * 20}`;
  else if (a < 0.4) p = `/api/v1/search/${pick(rand, SEARCH_TYPES)}?keywords=${encodeURIComponent(pick(rand, WORDS))}`;
  else if (a < 0.55) p = `/api/v1/contents/${(rand() < 0.6 ? pick(rand, popular) : pick(rand, everything)).code}`;
  else if (a < 0.7) p = "/api/v1/carts/count";
  else if (a < 0.75) p = visitor.kind === "anonymous" ? "/api/v1/passes" : "/api/v1/carts";
  else if (a < 0.8) p = `/api/v1/banners/${pick(rand, ["home", ...SPACES])}`;
  else if (a < 0.85) p = "/api/v1/search/filters?type=audio";
  else if (a < 0.95 && fonts.length)
    p = `/api/v1/font/subset?contents_code=${pick(rand, fonts).code}&text=${encodeURIComponent(pick(rand, FONT_TEXTS))}`;
  else p = "/api/v1/passes";
  return { kind: "api", path: p, headers: api };
}

// --- visitors -----------------------------------------------------------------------------------------------

const BROWSER = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) soak",
  "accept-encoding": process.env.SOAK_ACCEPT_ENCODING ?? "gzip, deflate, br",
};

async function signIn(email: string): Promise<{ cookie: string; token: string }> {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 302) throw new Error(`sign-in of ${email}: ${res.status}`);
  const set = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  const gt = set.find((c) => c.startsWith("gt=")) ?? "";
  return { cookie: set.filter((c) => !c.endsWith("=")).join("; "), token: decodeURIComponent(gt.slice(3)) };
}

/** An anonymous cart with a few items, through the API (as the editor does): its ngt token. */
async function anonymousCart(rand: Rand): Promise<string> {
  const contents_list = Array.from({ length: 3 }, () => ({ item_code: pick(rand, popular).code }));
  const res = await fetch(`${base}/api/v1/carts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ contents_list }),
  });
  const body = (await res.json()) as { data?: { ngt?: string } };
  if (!body.data?.ngt) throw new Error(`anonymous cart: ${res.status}`);
  return body.data.ngt;
}

const setupRand = random(7);
const members = await Promise.all(DEMO_MEMBERS.map(signIn));
const carts = await Promise.all(Array.from({ length: 4 }, () => anonymousCart(setupRand)));
// Per connection: two in three anonymous (half Korean by cookie, half English), one in six with an anonymous
// cart (pages rendered for them alone), one in six signed in.
const visitors = Array.from({ length: connections }, (_, i): Visitor => {
  const slot = i % 6;
  if (slot === 4) {
    const ngt = carts[i % carts.length];
    return { kind: "cart", headers: { ...BROWSER, cookie: `ngt=${ngt}` }, apiHeaders: { ngt } };
  }
  if (slot === 5) {
    const m = members[i % members.length];
    return { kind: "member", headers: { ...BROWSER, cookie: m.cookie }, apiHeaders: { authorizationToken: m.token } };
  }
  return {
    kind: "anonymous",
    headers: slot % 2 ? { ...BROWSER, cookie: "lng=ko" } : { ...BROWSER, "accept-language": "en-US,en;q=0.9" },
    apiHeaders: {},
  };
});

// --- the soak ------------------------------------------------------------------------------------------------

interface Tally {
  requests: number;
  /** Answers from the page micro-cache (X-Cache: HIT) and renders for it (MISS). */
  cacheHits: number;
  cacheMisses: number;
  errors: number;
  statuses: Record<string, number>;
  latencies: number[];
}
const tallies = new Map<string, Tally>();
const tally = (kind: string) => {
  let t = tallies.get(kind);
  if (!t) {
    t = { requests: 0, cacheHits: 0, cacheMisses: 0, errors: 0, statuses: {}, latencies: [] };
    tallies.set(kind, t);
  }
  return t;
};
type Memory = { rss: number; anon: number; file: number };
/** Each sample: the started process (the primary, or the one server) and each worker by pid. */
const samples: { t: number; processes: Record<string, Memory> }[] = [];
const sample = (t0: number) => {
  const processes: Record<string, Memory> = {};
  const m = memoryOf(pid);
  if (m) processes[workersOf(pid).length ? "primary" : "server"] = m;
  for (const worker of workersOf(pid)) {
    const w = memoryOf(worker);
    if (w) processes[`worker ${worker}`] = w;
  }
  samples.push({ t: Math.round((performance.now() - t0) / 100) / 10, processes });
};
/** The CPU time of the started process and its workers. */
const cpuOfAll = () => cpuOf(pid) + workersOf(pid).reduce((n, w) => n + cpuOf(w), 0);

const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
function send(ask: Ask): Promise<void> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const t = tally(ask.kind);
    const req = http.get({ host: "127.0.0.1", port, path: ask.path, agent, headers: ask.headers }, (res) => {
      res.resume();
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        t.requests++;
        t.statuses[status] = (t.statuses[status] ?? 0) + 1;
        if (res.headers["x-cache"] === "HIT") t.cacheHits++;
        else if (res.headers["x-cache"] === "MISS") t.cacheMisses++;
        // Redirects are answers (a list page past its end goes to its last page); 4xx and 5xx are not.
        if (status >= 400) t.errors++;
        t.latencies.push(performance.now() - t0);
        resolve();
      });
      res.on("error", () => {
        t.errors++;
        resolve();
      });
    });
    req.on("error", () => {
      t.requests++;
      t.errors++;
      t.statuses.network = (t.statuses.network ?? 0) + 1;
      resolve();
    });
  });
}

// A few seconds' rest after start-up and sign-in, so that "start" is the idle server.
await new Promise((r) => setTimeout(r, 5000));
const t0 = performance.now();
const cpu0 = cpuOfAll();
sample(t0);
const sampler = setInterval(() => sample(t0), sampleSeconds * 1000);
const deadline = t0 + seconds * 1000;
let lastReport = t0;
await Promise.all(
  visitors.map(async (visitor, i) => {
    const rand = random(1000 + i);
    while (performance.now() < deadline) {
      await send(nextAsk(rand, visitor));
      if (i === 0 && performance.now() - lastReport > 30_000) {
        lastReport = performance.now();
        const last = samples[samples.length - 1];
        const done = [...tallies.values()].reduce((n, x) => n + x.requests, 0);
        const rss = Object.entries(last?.processes ?? {}).map(([name, m]) => `${name} ${m.rss}`);
        console.error(`${Math.round((lastReport - t0) / 1000)} s: ${done} requests, RSS (MiB) ${rss.join(", ")}`);
      }
    }
  }),
);
const elapsed = (performance.now() - t0) / 1000;
const cpuSeconds = cpuOfAll() - cpu0;
clearInterval(sampler);
sample(t0);
agent.destroy();
server.stop();

// --- figures -------------------------------------------------------------------------------------------------

const r1 = (x: number) => Math.round(x * 10) / 10;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const byKind = Object.fromEntries(
  [...tallies.entries()]
    .sort((a, b) => b[1].requests - a[1].requests)
    .map(([kind, t]) => {
      const sorted = t.latencies.sort((a, b) => a - b);
      return [
        kind,
        {
          requests: t.requests,
          rps: Math.round(t.requests / elapsed),
          errors: t.errors,
          statuses: t.statuses,
          pageCacheHits: t.cacheHits,
          pageCacheMisses: t.cacheMisses,
          p50: r1(pct(sorted, 50)),
          p99: r1(pct(sorted, 99)),
        },
      ];
    }),
);
const all = [...tallies.values()];
const total = all.reduce((n, t) => n + t.requests, 0);
const errors = all.reduce((n, t) => n + t.errors, 0);
const latencies = all.flatMap((t) => t.latencies).sort((a, b) => a - b);
// The plateau: the mean of the samples of the soak's last quarter (its spread says whether it is flat).
const mean = (xs: number[]) => r1(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
const every = Math.max(1, Math.round(30 / sampleSeconds));
const names = [...new Set(samples.flatMap((s) => Object.keys(s.processes)))];
/** Start, peak, final and plateau of one process (a worker replaced during the soak shows only its own samples). */
const rssOf = (name: string) => {
  const own = samples.flatMap((s) => (s.processes[name] ? [{ t: s.t, ...s.processes[name] }] : []));
  const tail = own.filter((s) => s.t >= seconds * 0.75);
  const peak = own.reduce((a, b) => (b.rss > a.rss ? b : a), own[0]);
  const final = own[own.length - 1];
  return {
    start: own[0].rss,
    peak: peak.rss,
    peakAt: peak.t,
    final: final.rss,
    plateau: mean(tail.map((s) => s.rss)),
    plateauMin: Math.min(...tail.map((s) => s.rss)),
    plateauMax: Math.max(...tail.map((s) => s.rss)),
    finalAnon: final.anon,
    finalFile: final.file,
  };
};
const out = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  seedSize: size,
  seconds: r1(elapsed),
  connections,
  serverArgs: server.args,
  serverEnv: server.env,
  // Per process: the primary and each worker (or the one server when WEB_CONCURRENCY=1).
  rssMiB: Object.fromEntries(names.map((name) => [name, rssOf(name)])),
  // The sum over every process at each sample's time: what the machine gives the store.
  totalRssMiB: {
    peak: r1(Math.max(...samples.map((s) => Object.values(s.processes).reduce((n, m) => n + m.rss, 0)))),
    final: r1(Object.values(samples[samples.length - 1].processes).reduce((n, m) => n + m.rss, 0)),
  },
  requests: total,
  rps: Math.round(total / elapsed),
  // The server's CPU (primary and workers) per request: steadier than requests/s on a machine shared with other work.
  serverCpuSeconds: r1(cpuSeconds),
  serverCpuMsPerRequest: Math.round((cpuSeconds * 1000 * 100) / Math.max(1, total)) / 100,
  errors,
  // Of the answers that went through the page micro-cache (anonymous pages that opted in).
  pageCacheHitRatio:
    Math.round(
      (100 * all.reduce((n, t) => n + t.cacheHits, 0)) /
        Math.max(
          1,
          all.reduce((n, t) => n + t.cacheHits + t.cacheMisses, 0),
        ),
    ) / 100,
  p50: r1(pct(latencies, 50)),
  p95: r1(pct(latencies, 95)),
  p99: r1(pct(latencies, 99)),
  byKind,
  timeline: samples
    .filter((_, i) => i % every === 0 || i === samples.length - 1)
    .map((s) => [s.t, Object.fromEntries(Object.entries(s.processes).map(([name, m]) => [name, m.rss]))]),
};
const json = JSON.stringify(out, null, 2);
if (process.env.SOAK_JSON) fs.writeFileSync(process.env.SOAK_JSON, json);
console.log(json);
