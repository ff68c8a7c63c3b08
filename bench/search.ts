// Search latency in the domain function (keyword + two filters + per-type counts), over rotating queries,
// on a big catalog: SQLite, and PostgreSQL when BENCH_PG_URL is set (an empty database).
//   SEED_SIZE=100000 node --expose-gc --import tsx bench/search.ts
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type DB, migrateToLatest } from "../app/db/db.server";
import { seedDatabase } from "../app/db/seed/index.server";
import { currentFacets } from "../app/market/search/facets.server";
import { searchFilterSchema } from "../app/market/search/filter-schema.server";
import { ensureSearchIndex } from "../app/market/search/indexer.server";
import { searchContents } from "../app/market/search/search.server";
import { FILTERS, WORDS } from "./queries";

const size = Number(process.env.SEED_SIZE ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

async function bench(db: DB, label: string) {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [i, keywords] of WORDS.entries()) {
      const filter = searchFilterSchema.parse({ keywords, ...FILTERS[(i + round) % FILTERS.length] });
      const t0 = performance.now();
      await searchContents(db, filter, i % 2 ? "en" : "ko");
      if (round > 0) times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 10) / 10;
  return { engine: label, queries: WORDS.length, samples: times.length, p50: p(0.5), p95: p(0.95), p99: p(0.99), max: p(1) };
}

// The seeded databases are kept under .cache/bench-search/seed-<SEED_SIZE>/ and reused by the next runs (seeding
// 1,000,000 items takes many minutes); BENCH_FRESH=1 seeds a throwaway copy instead. BENCH_SEED_ONLY=1 stops
// after seeding.
const fresh = process.env.BENCH_FRESH === "1";
const tmp = fresh ? fs.mkdtempSync(path.join(os.tmpdir(), "market-search-bench-")) : path.resolve(".cache/bench-search", `seed-${size}`);
fs.mkdirSync(tmp, { recursive: true });
const results = [];
// BENCH_ENGINES=postgres measures one engine only (a 1,000,000-item seed takes minutes on each).
const engines = (process.env.BENCH_ENGINES ?? "sqlite,postgres").split(",");
const targets: [string, string][] = [];
if (engines.includes("sqlite")) targets.push(["sqlite", `file:${tmp}/search.sqlite`]);
if (process.env.BENCH_PG_URL && engines.includes("postgres")) targets.push(["postgres", process.env.BENCH_PG_URL]);
for (const [label, url] of targets) {
  const db = createDb(url);
  await migrateToLatest(db);
  const t0 = performance.now();
  await seedDatabase(db, { size, dataDir: tmp });
  // As the server's start does: a database seeded before the stored bitsets gets them here.
  await ensureSearchIndex(db);
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  if (process.env.BENCH_SEED_ONLY === "1") {
    console.log(JSON.stringify({ engine: label, size, seedSeconds }));
    await db.destroy();
    continue;
  }
  // The in-memory catalog columns load at the first search and after every catalog change.
  // What the facets keep (after a collection, when run with --expose-gc; otherwise with the loading's garbage).
  const memory = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().arrayBuffers;
  };
  const m1 = memory();
  const t1 = performance.now();
  await currentFacets(db);
  const loadMs = Math.round(performance.now() - t1);
  const facets = { loadMs, arraysMB: Math.round((memory() - m1) / 1e5) / 10 };
  results.push({ ...(await bench(db, label)), size, seedSeconds, facets });
  await db.destroy();
}
if (fresh) fs.rmSync(tmp, { recursive: true, force: true });
console.log(JSON.stringify(results, null, 2));
