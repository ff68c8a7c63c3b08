// Search latency in the domain function (keyword + two filters + per-type counts), over rotating queries,
// on a big catalog. SQLite always; PostgreSQL too when BENCH_PG_URL is set (an empty database).
//   SEED_SIZE=100000 node --import tsx bench/search.ts
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type DB, migrateToLatest } from "../app/db/db.server";
import { seedDatabase } from "../app/db/seed/index.server";
import { searchFilterSchema } from "../app/market/search/filters";
import { searchContents } from "../app/market/search/search.server";

const size = Number(process.env.SEED_SIZE ?? 100_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

/** 48 queries a person would type, each with two filters. */
const WORDS = [
  "피아노",
  "노을",
  "바다",
  "도시",
  "커피",
  "벚꽃",
  "구름",
  "카페",
  "재즈",
  "잔잔한",
  "신나는",
  "여행",
  "효과음",
  "박수",
  "알림",
  "아이콘",
  "화살표",
  "웨딩",
  "유튜브",
  "글꼴",
  "피아노곡",
  "음악을",
  "배경음악",
  "ㅍㅇㄴ",
  "piano",
  "pianos",
  "pian",
  "sunset",
  "ocean",
  "city",
  "coffee",
  "jazz",
  "calm",
  "happy",
  "whoosh",
  "chime",
  "icon",
  "arrow",
  "wedding",
  "travel",
  "font",
  "melody",
  "morning",
  "rainy",
  "cinematic",
  "lofi",
  "sunsett",
  "weddng",
];
const FILTERS = [
  { type: "audio", bpm_start: "60", bpm_end: "90" },
  { type: "all", price: "1", sort: "popular" },
  { type: "video", price: "3", duration_start: "10", duration_end: "30" },
  { type: "audio", audioType: "bgm", price: "1" },
];

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

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "market-search-bench-"));
const results = [];
const targets: [string, string][] = [["sqlite", `file:${tmp}/search.sqlite`]];
if (process.env.BENCH_PG_URL) targets.push(["postgres", process.env.BENCH_PG_URL]);
for (const [label, url] of targets) {
  const db = createDb(url);
  await migrateToLatest(db);
  const t0 = performance.now();
  await seedDatabase(db, { size, dataDir: tmp });
  const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
  results.push({ ...(await bench(db, label)), size, seedSeconds });
  await db.destroy();
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(JSON.stringify(results, null, 2));
