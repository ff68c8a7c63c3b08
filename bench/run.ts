// npm run bench: the foundation's figures.
//  1. seed time of a SEED_SIZE (default 100000) catalog into a fresh SQLite file
//  2. server first start (migrate + seed the default catalog) until /healthz answers
//  3. build size (server bundle, client JS total and gzipped)
//  4. HTTP throughput and latency on the big catalog: home, a landing, and a minimal route as the floor
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { createDb, migrateToLatest } from "../app/db/db.server";
import { seedDatabase } from "../app/db/seed/index.server";
import { load } from "./http";
import { AUDIO_PAGE_FILTERS, WORDS } from "./queries";
import { serveCommand } from "./serve";

const size = Number(process.env.SEED_SIZE ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const out: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length, node: process.version };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "market-bench-"));

async function seedBench() {
  const db = createDb(`file:${tmp}/big.sqlite`);
  await migrateToLatest(db);
  const t0 = performance.now();
  await seedDatabase(db, { size, dataDir: tmp });
  out.seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  out.seedSize = size;
  await db.destroy();
}

function walk(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    : [];
}

function buildSize() {
  const js = walk("public/build").filter((f) => f.endsWith(".js"));
  const raw = js.reduce((n, f) => n + fs.statSync(f).size, 0);
  const gz = js.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(f)).length, 0);
  out.build = {
    serverKB: Math.round(fs.statSync("build/index.js").size / 1024),
    clientJsKB: Math.round(raw / 1024),
    clientJsGzipKB: Math.round(gz / 1024),
    files: js.length,
  };
}

async function startServer(dbUrl: string, dataDir: string, port: number, seedSize: number): Promise<{ stop: () => void; ms: number }> {
  const t0 = performance.now();
  // The node flags and environment of `npm run serve` (package.json), as production runs it.
  const serve = serveCommand();
  const child = spawn(process.execPath, serve.args, {
    env: {
      ...process.env,
      ...serve.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      DATABASE_URL: dbUrl,
      DATA_DIR: dataDir,
      SEED_SIZE: String(seedSize),
      LOG_REQUESTS: "false",
      SESSION_SECRET: "bench-secret-bench-secret",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) break;
    } catch {}
    if (performance.now() - t0 > 180_000) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
  return { stop: () => child.kill("SIGTERM"), ms: Math.round(performance.now() - t0) };
}

await seedBench();
buildSize();
const first = await startServer(`file:${tmp}/first.sqlite`, `${tmp}/first`, 3301, 300);
out.firstStartMs = first.ms;
first.stop();

const big = await startServer(`file:${tmp}/big.sqlite`, tmp, 3302, size);
const base = "http://127.0.0.1:3302";

/** JavaScript a first visit downloads: the page's scripts and module preloads, gzipped. */
async function firstVisitJs(path: string) {
  const html = await (await fetch(base + path, { headers: { "accept-language": "en" } })).text();
  const srcs = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map((m) => m[1]);
  let gz = 0;
  for (const src of new Set(srcs)) gz += zlib.gzipSync(Buffer.from(await (await fetch(base + src)).arrayBuffer())).length;
  return Math.round(gz / 1024);
}
const db = createDb(`file:${tmp}/big.sqlite`);
const sample = await db
  .selectFrom("contents")
  .select(["code", "contents_type"])
  .where("status", "=", "active")
  .orderBy("popularity", "desc")
  .limit(400)
  .execute();
const category = await db
  .selectFrom("taxonomy")
  .select("id")
  .where("kind", "=", "category")
  .where("space", "=", "audio")
  .executeTakeFirstOrThrow();
await db.destroy();
const details = sample.map((r) => `/contents/${r.contents_type}?code=${r.code}`);
out.firstVisitJsGzipKB = {
  home: await firstVisitJs("/"),
  landing: await firstVisitJs("/audio"),
  list: await firstVisitJs(`/list/audio/${category.id}`),
  audioDetail: await firstVisitJs(details.find((d) => d.includes("/audio?")) ?? details[0]),
  videoDetail: await firstVisitJs(details.find((d) => d.includes("/video?")) ?? details[0]),
};
const headers = { "accept-language": "en" };
const searches = AUDIO_PAGE_FILTERS.flatMap((filter) => WORDS.map((w) => `/search/audio?keywords=${encodeURIComponent(w)}&${filter}`));
out.http = {
  connections: 32,
  seconds,
  floor_healthz: await load(base, ["/healthz"], 32, seconds, headers),
  floor_remix_resource: await load(base, ["/api/v1/health"], 32, seconds, headers),
  home: await load(base, ["/"], 32, seconds, headers),
  landings: await load(base, ["/video", "/icon", "/audio", "/font", "/package", "/benefit"], 32, seconds, headers),
  lists: await load(
    base,
    Array.from({ length: 20 }, (_, i) => `/list/audio/${category.id}?page=${i + 1}`),
    32,
    seconds,
    headers,
  ),
  details400: await load(base, details, 32, seconds, headers),
  pricing: await load(base, ["/price", "/price/video", "/price/audio-bgm"], 32, seconds, headers),
  uncached_signed_in_like_detail: await load(base, details, 32, seconds, { ...headers, cookie: "ngt=bench" }),
  // 192 different searches (48 words × 4 filter sets) on the audio search page, then the same without the
  // page micro-cache (a cookie takes a visitor past it).
  search_audio: await load(base, searches, 32, seconds, headers),
  search_audio_uncached: await load(base, searches, 32, seconds, { ...headers, cookie: "ngt=bench" }),
};
big.stop();
fs.rmSync(tmp, { recursive: true, force: true });
console.log(JSON.stringify(out, null, 2));
