import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "../../app/db/db.server";
import type { Database, NewContent, Content as Row } from "../../app/db/schema";
import { type Clause, parseQuery, toFts5, toTsquery } from "../../app/market/search/analyze";
import { searchFilterSchema } from "../../app/market/search/filter-schema.server";
import { ensureSearchIndex, reindexContents } from "../../app/market/search/indexer.server";
import { matchByPostings, rebuildPostings } from "../../app/market/search/postings.server";
import { searchContents } from "../../app/market/search/search.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

type Card = { id: number; code: string; type: string; title: string };
type Data = { list: Card[]; total_count: number; counts: Record<string, number>; corrected: string | null };
type Params = Record<string, string | number>;

const TYPES = ["video", "icon", "audio", "font", "package"] as const;
const popular = (a: Row, b: Row) => b.popularity - a.popularity || a.id - b.id;
const recent = (a: Row, b: Row) => (a.released_at < b.released_at ? 1 : a.released_at > b.released_at ? -1 : a.id - b.id);
const ids = (list: { id: number }[]) => list.map((c) => c.id);
const countsOf = (rows: Row[]) => ({
  all: rows.length,
  ...Object.fromEntries(TYPES.map((t) => [t, rows.filter((r) => r.contents_type === t).length])),
});
const day = (d: string) => `${d}T00:00:00.000Z`;
const paid = { price_type: "paid", price_krw: 10_000, price_usd: 900 } as const;
const free = { price_type: "free", price_krw: 0, price_usd: 0 } as const;
const benefit = { price_type: "benefit", price_krw: 0, price_usd: 0 } as const;

describe(`search on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let url: string;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let active: Row[];
  /** Taxonomy ids: a genre made for the fixtures (T), seeded audio genres (g0, g1) and categories. */
  const tax = { T: 0, g0: 0, g1: 0, audioCat: 0, videoCat: 0, iconCat: 0 };
  /** The fixtures by key; C* all carry the tag "quorblex". */
  const fx: Record<string, Row> = {};
  const setC = () =>
    Object.entries(fx)
      .filter(([k, r]) => k.startsWith("C") && r.status === "active")
      .map(([, r]) => r);

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, url } = t);
    call = await createTestApp(db, { dataDir: t.dataDir });
    const terms = (kind: "category" | "genre", space: "audio" | "video" | "icon") =>
      db.selectFrom("taxonomy").select("id").where("kind", "=", kind).where("space", "=", space).orderBy("sort").execute();
    const [genres, aCats, vCats, iCats] = await Promise.all([
      terms("genre", "audio"),
      terms("category", "audio"),
      terms("category", "video"),
      terms("category", "icon"),
    ]);
    Object.assign(tax, { g0: genres[0].id, g1: genres[1].id, audioCat: aCats[0].id, videoCat: vCats[0].id, iconCat: iCats[0].id });
    tax.T = (
      await db
        .insertInto("taxonomy")
        .values({ kind: "genre", space: "audio", code: "fixgenre", name_ko: "픽스장르", name_en: "Fixgenre", parent_id: null, sort: 999 })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const { id: _id, ...base } = await db
      .selectFrom("contents")
      .selectAll()
      .where("contents_type_sub", "=", 3002)
      .executeTakeFirstOrThrow();
    const neutral = { tags_ko: "", tags_en: "", description_ko: "", description_en: "", category_id: null, genre_id: null, mood_id: null };
    const A = (title_ko: string, title_en: string, bpm: number, more = {}) => ({ title_ko, title_en, bpm, genre_id: tax.T, ...more });
    type N = number | null;
    /** A "quorblex" filter fixture: audio sub-type, price, seconds, bpm, popularity, release day. */
    const Q = (
      sub: N,
      price: typeof paid | typeof free | typeof benefit,
      secs: N,
      bpm: N,
      popularity: number,
      released: string,
      more = {},
    ) => ({
      title_ko: "큐블렉스 샘플",
      title_en: "Fixture sample",
      tags_en: "quorblex",
      contents_type_sub: sub,
      ...price,
      duration_ms: secs === null ? null : secs * 1000,
      bpm,
      popularity,
      released_at: day(released),
      ...more,
    });
    const defs: [string, Partial<NewContent>][] = [
      ["A1", A("피아노곡", "Fixture one", 55)],
      ["A2", A("잔잔한피아노", "Fixture two", 65)],
      ["A3", A("피아노 연주", "Fixture three", 75)],
      ["A4", A("배경음악 모음", "Fixture four", 95)],
      ["A5", A("AI배경음악 Lofi Beats", "AI배경음악 Lofi Beats", 125, { contents_type_sub: 3003 })],
      ["A6", A("꿈결 소품", "Piano Dreams", 70)],
      ["A7", A("제퍼퀼 테마", "Zephyrquill Theme", 80)],
      ["A8", A("줄크 행진", "Zulq March", 80)],
      ["B1", { title_ko: "반짝숲", title_en: "Glimmerwood Tune", popularity: 1 }],
      ["B2", { title_ko: "반짝숲 둘", title_en: "Fixture tagged", tags_en: "glimmerwood", popularity: 2 }],
      ["B3", { title_ko: "반짝숲 셋", title_en: "Fixture described", description_en: "A calm glimmerwood sketch", popularity: 3 }],
      ["B4", { title_ko: "뷁뚫 소리", title_en: "Fixture k1", popularity: 1 }],
      ["B5", { title_ko: "소리 둘", title_en: "Fixture k2", tags_ko: "뷁뚫", popularity: 2 }],
      ["B6", { title_ko: "소리 셋", title_en: "Fixture k3", description_ko: "뷁뚫 설명", popularity: 3 }],
      // Best Match where the most popular hits are in descriptions, and tag hits sit below them.
      ["Z1", { title_ko: "제트 하나", title_en: "Zarnik Tune", popularity: 1 }],
      ["Z2", { title_ko: "제트 둘", title_en: "Fixture z2", tags_en: "zarnik", popularity: 2 }],
      ["Z3", { title_ko: "제트 셋", title_en: "Fixture z3", tags_en: "zarnik", popularity: 3 }],
      ["Z4", { title_ko: "제트 넷", title_en: "Fixture z4", description_en: "A zarnik sketch", popularity: 4 }],
      ["Z5", { title_ko: "제트 다섯", title_en: "Fixture z5", description_en: "A zarnik sketch", popularity: 5 }],
      ["Z6", { title_ko: "제트 여섯", title_en: "Fixture z6", description_en: "A zarnik sketch", popularity: 6 }],
      ["U1", { title_ko: "왈츠", title_en: "Vellichor Waltz" }],
      ["C1", Q(3001, paid, 2, null, 9001, "2021-03-01", { category_id: tax.audioCat })],
      ["C2", Q(3002, free, 45, 59, 9002, "2021-01-01", { genre_id: tax.g0 })],
      ["C3", Q(3002, benefit, 120, 60, 9003, "2021-06-01", { genre_id: tax.g1 })],
      ["C4", Q(3003, paid, 200, 89, 9004, "2021-02-01", { genre_id: tax.g0 })],
      ["C5", Q(3002, paid, 35, 90, 9005, "2021-05-01", { genre_id: tax.g1, category_id: tax.audioCat })],
      ["C6", Q(3003, free, 59, 119, 9006, "2021-04-01")],
      ["C7", Q(3002, paid, 180, 120, 9007, "2021-07-01")],
      ["C8", Q(null, paid, 10, null, 9008, "2020-12-01", { contents_type: "video", category_id: tax.videoCat })],
      ["C9", Q(null, free, null, null, 9000, "2021-08-01", { contents_type: "icon", category_id: tax.iconCat })],
      ["C10", Q(3002, paid, 90, 150, 9999, "2021-09-01", { status: "discontinued" })],
    ];
    for (const [i, [key, more]] of defs.entries()) {
      const code = `ZZ${String(i + 1).padStart(7, "0")}`;
      const values = { ...base, ...neutral, ...paid, popularity: 0, code, ...more } as NewContent;
      const { id } = await db.insertInto("contents").values(values).returning("id").executeTakeFirstOrThrow();
      fx[key] = await db.selectFrom("contents").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    }
    const fixtureIds = Object.values(fx).map((r) => r.id);
    expect(await reindexContents(db, fixtureIds)).toBe(defs.length);
    active = await db.selectFrom("contents").selectAll().where("status", "=", "active").execute();
  });
  afterAll(() => drop());

  const api = async (path: string, language = "en") => {
    const res = await call(`/api/v1/${path}`, { headers: { language } });
    return { status: res.status, body: await res.json() };
  };
  const search = async (params: Params, type = "all", language = "en"): Promise<Data> => {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const { status, body } = await api(`search/${type}?${qs}`, language);
    expect(status, `${type}?${qs}`).toBe(200);
    expect(body.result).toEqual({ code: 200, message: "SUCCESS" });
    return body.data;
  };
  const page = async (path: string) => {
    const res = await call(path, { headers: { "accept-language": "en" } });
    return { status: res.status, html: await res.text() };
  };

  describe("recall", () => {
    it.each([
      ["피아노", ["A1", "A2", "A3"], ["A4", "A6"]],
      ["피아노를", ["A1", "A2", "A3"], ["A4"]],
      ["ㅍㅇㄴ", ["A1", "A2", "A3"], ["A4", "A6"]],
      ["음", ["A4", "A5"], ["A1", "A3"]],
      ["음악", ["A4", "A5"], ["A1"]],
      ["배경음악", ["A4", "A5"], ["A1"]],
      ["음악을", ["A4", "A5"], ["A1"]],
      ["모음", ["A4"], ["A5"]],
      ["piano", ["A6"], ["A1", "A4"]],
      ["pianos", ["A6"], ["A1"]],
      ["pian", ["A6"], ["A1"]],
      ["Zephyrquill", ["A7"], ["A6"]],
      ["lofi", ["A5"], ["A4"]],
      ["beats", ["A5"], ["A4"]],
      ["LOFI 배경음악", ["A5"], ["A4"]],
    ])("%s finds %j (not %j)", async (keywords, found, absent) => {
      const data = await search({ keywords, categorys: tax.T, limit: 100 });
      const got = ids(data.list);
      expect(got).toEqual(expect.arrayContaining(found.map((k) => fx[k].id)));
      for (const k of absent) expect(got, k).not.toContain(fx[k].id);
      expect(data.total_count).toBe(got.length);
      expect(data.corrected).toBeNull();
    });

    it("corrects a typo in a word of five letters or more, and says so", async () => {
      const data = await search({ keywords: "zephyrqill" });
      expect(data.corrected).toBe("zephyrquill");
      expect(ids(data.list)).toEqual([fx.A7.id]);
      expect((await search({ keywords: "zulq" })).list.map((c) => c.id)).toEqual([fx.A8.id]);
      const short = await search({ keywords: "zulx" });
      expect(short.corrected).toBeNull();
      expect(short.total_count).toBe(0);
    });
  });

  it.each([
    ["glimmerwood", ["B1", "B2", "B3"]],
    ["뷁뚫", ["B4", "B5", "B6"]],
    ["zarnik", ["Z1", "Z3", "Z2", "Z6", "Z5", "Z4"]],
  ])("ranks %s in the title above tags above description (Best Match)", async (keywords, order) => {
    const want = order.map((k) => fx[k].id);
    expect(ids((await search({ keywords, sort: "accuracy" })).list)).toEqual(want);
    // By popularity the order is another, so the ranking above comes from the score.
    const byPopularity = ids(order.map((k) => fx[k]).sort(popular));
    expect(byPopularity).not.toEqual(want);
    expect(ids((await search({ keywords, sort: "popular" })).list)).toEqual(byPopularity);
  });

  it("pages Best Match the same however few of the most popular items it first reads the tiers of", async () => {
    for (const keywords of ["glimmerwood", "뷁뚫", "zarnik", "quorblex", "피아노", "배경음악", "piano"]) {
      const full = ids((await searchContents(db, searchFilterSchema.parse({ keywords, limit: 100 }), "en")).list);
      expect(full.length, keywords).toBeGreaterThan(2);
      for (let offset = 0; offset < full.length; offset++) {
        const f = searchFilterSchema.parse({ keywords, offset, limit: 2 });
        for (const probes of [[1], [1, 2], [2, 3]])
          expect(ids((await searchContents(db, f, "en", { probes })).list), `${keywords} @${offset} ${probes}`).toEqual(
            full.slice(offset, offset + 2),
          );
      }
    }
  });

  describe("filters", () => {
    const within = (v: number | null, lo: number, hi = Number.POSITIVE_INFINITY) => v !== null && v >= lo && v < hi;
    const cases: [string, () => Params, (r: Row) => boolean][] = [
      ["price=1 (paid)", () => ({ price: 1 }), (r) => r.price_type === "paid"],
      ["price=3 (free & benefit)", () => ({ price: 3 }), (r) => r.price_type !== "paid"],
      ["a category", () => ({ categorys: tax.audioCat }), (r) => r.category_id === tax.audioCat],
      ["a genre", () => ({ categorys: tax.g0 }), (r) => r.genre_id === tax.g0],
      [
        "category or genre",
        () => ({ categorys: `${tax.audioCat},${tax.g1}` }),
        (r) => r.category_id === tax.audioCat || r.genre_id === tax.g1,
      ],
      [
        "duration 30-100 s (end excluded)",
        () => ({ duration_start: 30, duration_end: 100 }),
        (r) => within(r.duration_ms, 30_000, 100_000),
      ],
      ["duration from 100 s", () => ({ duration_start: 100 }), (r) => within(r.duration_ms, 100_000)],
      ["audioType=bgm", () => ({ audioType: "bgm" }), (r) => r.contents_type_sub === 3002 || r.contents_type_sub === 3003],
      ["audioType=se", () => ({ audioType: "se" }), (r) => r.contents_type_sub === 3001],
      ["ai=1", () => ({ ai: 1 }), (r) => r.contents_type_sub === 3003],
      ["bpm 0-60", () => ({ bpm_start: 0, bpm_end: 60 }), (r) => within(r.bpm, 0, 60)],
      ["bpm 60-90", () => ({ bpm_start: 60, bpm_end: 90 }), (r) => within(r.bpm, 60, 90)],
      ["bpm 90-120", () => ({ bpm_start: 90, bpm_end: 120 }), (r) => within(r.bpm, 90, 120)],
      ["bpm 120+", () => ({ bpm_start: 120 }), (r) => within(r.bpm, 120)],
      [
        "free & benefit BGM at 60-120 bpm",
        () => ({ price: 3, audioType: "bgm", bpm_start: 60, bpm_end: 120 }),
        (r) => r.price_type !== "paid" && r.contents_type_sub !== 3001 && within(r.bpm, 60, 120),
      ],
    ];
    it.each(cases)("%s, with keywords and over the whole catalog", async (_name, params, pred) => {
      const want = setC().filter(pred).sort(popular);
      expect(want.length).toBeGreaterThan(0);
      expect(want.length).toBeLessThan(setC().length);
      const kw = await search({ keywords: "quorblex", sort: "popular", limit: 100, ...params() });
      expect(ids(kw.list)).toEqual(ids(want));
      expect(kw.total_count).toBe(want.length);
      expect(kw.counts).toEqual(countsOf(want));
      const all = active.filter(pred).sort(popular);
      const audio = all.filter((r) => r.contents_type === "audio");
      const res = await search({ sort: "popular", limit: 100, ...params() }, "audio");
      expect(ids(res.list)).toEqual(ids(audio.slice(0, 100)));
      expect(res.total_count).toBe(audio.length);
      expect(res.counts).toEqual(countsOf(all));
    });

    it.each([
      ["popular", popular],
      ["recent", recent],
    ] as const)("orders by sort=%s, with and without keywords", async (sort, order) => {
      expect(ids((await search({ keywords: "quorblex", sort })).list)).toEqual(ids(setC().sort(order)));
      const audio = active.filter((r) => r.contents_type === "audio").sort(order);
      const res = await search({ sort }, "audio");
      expect(res.list).toHaveLength(42);
      expect(ids(res.list)).toEqual(ids(audio.slice(0, 42)));
    });

    it("pages with offset/limit: pages do not overlap, together they are the whole answer, the total stays", async () => {
      const want = setC().sort(recent);
      const seen: number[] = [];
      for (let offset = 0; offset < want.length + 3; offset += 3) {
        const data = await search({ keywords: "quorblex", sort: "recent", offset, limit: 3 });
        expect(data.total_count).toBe(want.length);
        seen.push(...ids(data.list));
      }
      expect(seen).toEqual(ids(want));
      const catalog: number[] = [];
      for (let offset = 0; offset < active.length + 100; offset += 100) {
        const data = await search({ offset, limit: 100 });
        expect(data.total_count).toBe(active.length);
        catalog.push(...ids(data.list));
      }
      expect(new Set(catalog).size).toBe(catalog.length);
      expect(catalog).toEqual(ids([...active].sort(popular)));
    });

    it.each([
      ["no filter", {}, undefined],
      ["price=3", { price: 3 }, ["free", "benefit"]],
      ["price=1", { price: 1 }, ["paid"]],
    ] as const)("counts per type with %s equal SQL counts and sum to all", async (_name, params, prices) => {
      let q = db
        .selectFrom("contents")
        .select(["contents_type", sql<number>`count(*)`.as("n")])
        .where("status", "=", "active")
        .groupBy("contents_type");
      if (prices) q = q.where("price_type", "in", [...prices]);
      const rows = await q.execute();
      const want = Object.fromEntries(TYPES.map((t) => [t, Number(rows.find((r) => r.contents_type === t)?.n ?? 0)]));
      const all = Object.values(want).reduce((a, b) => a + b, 0);
      for (const type of ["all", ...TYPES]) {
        const data = await search({ ...params, limit: 1 }, type);
        expect(data.counts).toEqual({ all, ...want });
        expect(data.total_count).toBe(type === "all" ? all : want[type]);
        expect(TYPES.reduce((s, t) => s + data.counts[t], 0)).toBe(data.counts.all);
      }
    });
  });

  it("keeps the index in step: a retitled item is found by its new word only", async () => {
    const found = async (keywords: string) => ids((await search({ keywords, limit: 100 })).list).filter((id) => id === fx.U1.id).length;
    expect(await found("vellichor")).toBe(1);
    await db.updateTable("contents").set({ title_en: "Sonderlux Waltz" }).where("id", "=", fx.U1.id).execute();
    expect(await reindexContents(db, [fx.U1.id])).toBe(1);
    expect(await found("vellichor")).toBe(0);
    expect(await found("sonderlux")).toBe(1);
    expect(await found("waltz")).toBe(1);
  });

  it.skipIf(ENGINE === "postgres")("reads the full-text index for the text only, never a filter (query plan)", async () => {
    const file = url.replace(/^file:/, "");
    const logged: { sql: string; params: readonly unknown[] }[] = [];
    const spy = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(file) }),
      log: (e) => {
        if (e.level === "query") logged.push({ sql: e.query.sql, params: e.query.parameters });
      },
    });
    try {
      const filter = searchFilterSchema.parse({ type: "audio", keywords: "piano", bpm_start: "60", bpm_end: "90" });
      const found = (await searchContents(spy, filter, "en")).list.map((c) => c.id);
      expect(found).toContain(fx.A6.id);
      expect(found).not.toContain(fx.A1.id);
    } finally {
      await spy.destroy();
    }
    const searches = logged.filter((q) => /\bMATCH\b/.test(q.sql));
    expect(searches.length).toBeGreaterThanOrEqual(2);
    const raw = new SQLite(file);
    try {
      for (const q of searches) {
        expect(q.sql).not.toMatch(/contents|bpm/);
        const plan = raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.params as unknown[])) as { detail: string }[];
        const text = plan.map((r) => r.detail).join("\n");
        expect(text).toMatch(/search_fts VIRTUAL TABLE INDEX/);
        expect(text).not.toMatch(/contents/);
      }
    } finally {
      raw.close();
    }
  });

  it.skipIf(ENGINE === "sqlite")("reads the text index for the text only, never a filter (PostgreSQL query plans)", async () => {
    const logged: { sql: string; params: readonly unknown[] }[] = [];
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const spy = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: (e) => {
        if (e.level === "query") logged.push({ sql: e.query.sql, params: e.query.parameters });
      },
    });
    // With BPM, duration and price filters: first through the GIN index (these words are rare here), then with
    // every key stored, matched from the bitsets.
    const run = async () => {
      logged.length = 0;
      for (const [keywords, id] of [
        ["piano", fx.A6.id],
        ["fixture", fx.A2.id],
      ] as const) {
        const filter = searchFilterSchema.parse({
          type: "audio",
          keywords,
          bpm_start: "60",
          bpm_end: "90",
          duration_start: "1",
          price: "1",
        });
        const found = ids((await searchContents(spy, filter, "en")).list);
        expect(found, keywords).toContain(id);
        expect(found, keywords).not.toContain(fx.A1.id);
      }
      const searches = logged.filter((q) => /\bsearch_(documents|fields|postings)\b/.test(q.sql));
      for (const q of searches) {
        expect(q.sql).not.toMatch(/\bcontents\b|bpm|duration|price/);
        const plan = (await pool.query(`EXPLAIN ${q.sql}`, q.params as unknown[])).rows.map((r) => r["QUERY PLAN"]).join("\n");
        expect(plan).toMatch(/search_(documents|fields|postings)/);
        expect(plan).not.toMatch(/\bcontents\b|bpm|duration|price/);
      }
      return searches;
    };
    try {
      expect((await run()).some((q) => /@@/.test(q.sql))).toBe(true);
      await rebuildPostings(db, { minDocs: 1 });
      const stored = await run();
      expect(stored.some((q) => /search_postings/.test(q.sql))).toBe(true);
      // The match itself (a tier may still ask the GIN index for a word no title or tag holds, so never stored).
      expect(stored.filter((q) => /@@/.test(q.sql) && /search_documents/.test(q.sql)).map((q) => [q.sql, q.params])).toEqual([]);
    } finally {
      await spy.destroy();
      await rebuildPostings(db);
    }
  });

  it.skipIf(ENGINE === "sqlite")("keeps the full-text table's rows narrow: the vectors are out of line (PostgreSQL)", async () => {
    const { rows } = await sql<{
      bytes: string;
      n: string;
    }>`SELECT pg_relation_size('search_documents') AS bytes, (SELECT count(*) FROM search_documents) AS n`.execute(db);
    const [bytes, n] = [Number(rows[0].bytes), Number(rows[0].n)];
    expect(n).toBeGreaterThan(200);
    // About 90 bytes an item (1 kB with the vector inline), so a broad match reads a few pages, not the table.
    expect(bytes / n).toBeLessThan(150);
  });

  it("filters on the catalog as it is now, whoever changed it: another server's direct update is seen at the next search", async () => {
    const other = createDb(url, { poolSize: 1 });
    const find = async (params: Params) =>
      ids((await search({ keywords: "piano", limit: 100, ...params }, "audio")).list).includes(fx.A6.id);
    try {
      expect(await find({ bpm_start: 60, bpm_end: 90 })).toBe(true);
      await other.updateTable("contents").set({ bpm: 130 }).where("id", "=", fx.A6.id).execute();
      expect(await find({ bpm_start: 60, bpm_end: 90 })).toBe(false);
      expect(await find({ bpm_start: 120 })).toBe(true);
      await other.updateTable("contents").set({ status: "discontinued" }).where("id", "=", fx.A6.id).execute();
      expect(await find({})).toBe(false);
    } finally {
      await other.updateTable("contents").set({ bpm: fx.A6.bpm, status: "active" }).where("id", "=", fx.A6.id).execute();
      await other.destroy();
    }
    expect(await find({ bpm_start: 60, bpm_end: 90 })).toBe(true);
  });

  describe("API", () => {
    it("answers /api/v1/search/audio with filters in the envelope, in the caller's language", async () => {
      const data = await search({ keywords: "quorblex", price: 1, sort: "popular", bpm_start: 60 }, "audio", "ko");
      const want = setC()
        .filter((r) => r.contents_type === "audio" && r.price_type === "paid" && (r.bpm ?? -1) >= 60)
        .sort(popular);
      expect(want.length).toBeGreaterThan(1);
      expect(data.list.map((c) => [c.id, c.code, c.title, c.type])).toEqual(want.map((r) => [r.id, r.code, r.title_ko, "audio"]));
      expect(data.total_count).toBe(want.length);
      expect(data.counts).toEqual(countsOf(setC().filter((r) => r.price_type === "paid" && (r.bpm ?? -1) >= 60)));
    });

    it.each([
      ["sort=x", "sort"],
      ["price=9", "price"],
      ["bpm_start=abc", "bpm_start"],
      ["bpm_start=100&bpm_end=60", "bpm_end"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["offset=-1", "offset"],
      ["categorys=a,b", "categorys"],
      ["duration_start=90&duration_end=30", "duration_end"],
      ["audioType=loud", "audioType"],
      ["ai=2", "ai"],
    ])("rejects %s with 400 naming %s", async (qs, param) => {
      const { status, body } = await api(`search/audio?keywords=piano&${qs}`);
      expect(status).toBe(400);
      expect(body.result.code).toBe(400);
      expect(body.result.message).toMatch(new RegExp(`\\b${param}\\b`));
    });

    it("rejects an unknown search type", async () => {
      for (const path of ["search/nope?keywords=piano", "search/filters?type=nope"]) {
        const { status, body } = await api(path);
        expect(status, path).toBe(400);
        expect(body.result.message, path).toMatch(/\btype\b/);
      }
    });

    it("lists the filters of audio: genres, audio types and BPM bands", async () => {
      const { status, body } = await api("search/filters?type=audio", "ko");
      expect(status).toBe(200);
      const genres = await db
        .selectFrom("taxonomy")
        .select(["id", "name_ko"])
        .where("kind", "=", "genre")
        .where("space", "=", "audio")
        .orderBy("sort")
        .execute();
      expect(body.data.genres).toEqual(genres.map((g) => ({ id: g.id, name: g.name_ko })));
      expect(body.data.genres).toContainEqual({ id: tax.T, name: "픽스장르" });
      expect(body.data.audio_types).toEqual(["all", "bgm", "se"]);
      expect(body.data.bpm_bands).toEqual([
        { code: "very_slow", start: 0, end: 60 },
        { code: "slow", start: 60, end: 90 },
        { code: "fast", start: 90, end: 120 },
        { code: "very_fast", start: 120 },
      ]);
      expect(body.data.ai).toBe(true);
      const video = (await api("search/filters?type=video")).body.data;
      expect([video.genres, video.bpm_bands, video.audio_types, video.ai]).toEqual([[], [], [], false]);
    });
  });

  describe("page", () => {
    /** Whether the form's input with this name and value is checked (in whatever order the attributes come). */
    const checked = (html: string, name: string, value: string | number) => {
      const tags = (html.match(/<input[^>]*>/g) ?? []).filter((t) => t.includes(` name="${name}"`) && t.includes(` value="${value}"`));
      expect(tags, `${name}=${value}`).toHaveLength(1);
      return / checked(="")?[ />]/.test(tags[0]);
    };

    it("renders results of the form's combined BPM range and keeps the choices checked", async () => {
      const { status, html } = await page(
        `/search/audio?keywords=${encodeURIComponent("피아노")}&bpm=60-90&audioType=bgm&categorys=${tax.T}`,
      );
      expect(status).toBe(200);
      expect(html).toContain(`code=${fx.A2.code}`);
      expect(html).toContain(`code=${fx.A3.code}`);
      expect(html).not.toContain(`code=${fx.A1.code}`); // 55 bpm
      expect(html).not.toContain("Some filter values were not valid");
      expect(checked(html, "bpm", "60-90")).toBe(true);
      expect(checked(html, "bpm", "")).toBe(false);
      expect(checked(html, "audioType", "bgm")).toBe(true);
      expect(checked(html, "categorys", tax.T)).toBe(true);
      expect(html).toMatch(/<input[^>]*name="keywords"[^>]*value="피아노"/);
    });

    it("shows the page with a notice when a filter value is not valid", async () => {
      const { status, html } = await page("/search/audio?keywords=quorblex&price=9&bpm=0-60");
      expect(status).toBe(200);
      expect(html).toContain("Some filter values were not valid");
      expect(checked(html, "price", 2)).toBe(true);
      expect(checked(html, "bpm", "0-60")).toBe(true);
      expect(html).toContain(`code=${fx.C2.code}`);
    });

    it("says when nothing was found", async () => {
      const { status, html } = await page("/search/all?keywords=qqxxzzvv");
      expect(status).toBe(200);
      expect(html).toContain("No results found for");
      expect(html).not.toContain("Some filter values were not valid");
    });

    it("says when the filters found nothing without a search word, not “” (issue 26.8)", async () => {
      const { status, html } = await page("/search/audio?bpm_start=399&bpm_end=400");
      expect(status).toBe(200);
      const box = html.match(/<div class="no-results">[\s\S]*?<\/div>/)?.[0] ?? "";
      expect(box).toContain("No items match these filters.");
      expect(box).toContain("Change the filters, or reset them.");
      expect(box).not.toContain("“”");
    });
  });

  describe("stored bitsets of frequent keys", () => {
    const KEYWORDS = [
      "피아노",
      "피아노를",
      "ㅍㅇㄴ",
      "음",
      "음악",
      "배경음악",
      "음악을",
      "모음",
      "piano",
      "pianos",
      "pian",
      "lofi",
      "LOFI 배경음악",
      "quorblex",
      "glimmerwood",
      "뷁뚫",
      "fixture",
      "fixture quorblex",
      "piano 배경음악",
      "sample",
      "video",
    ];
    const FILTERS: Params[] = [{}, { type: "audio", audioType: "bgm" }, { sort: "popular", price: 1 }];
    const answers = async () => {
      const out: unknown[] = [];
      for (const keywords of KEYWORDS)
        for (const params of FILTERS) {
          const data = await searchContents(db, searchFilterSchema.parse({ keywords, limit: 100, ...params }), "en");
          out.push([keywords, params, ids(data.list), data.counts, data.total_count]);
        }
      return out;
    };
    const found = async (keywords: string, id: number) =>
      ids((await searchContents(db, searchFilterSchema.parse({ keywords, limit: 100 }), "en")).list).includes(id);
    /**
     * The ids the stored bitsets give for the keywords in a field (null: none stored), and the full-text index's
     * (PostgreSQL's GIN index, SQLite's FTS5 table).
     */
    const raw = async (keywords: string, field: "document" | "title" | "tags" = "document") => {
      const [table, column] = field === "document" ? ["search_documents", "document"] : ["search_fields", field];
      const gin = async (clauses: Clause[]) =>
        Int32Array.from(
          (ENGINE === "postgres"
            ? (
                await sql<{
                  id: number;
                }>`SELECT content_id AS id FROM ${sql.table(table)} WHERE ${sql.ref(column)} @@ CAST(${toTsquery(clauses)} AS tsquery)`.execute(
                  db,
                )
              ).rows
            : (
                await sql<{ id: number }>`SELECT rowid AS id FROM search_fts WHERE search_fts MATCH ${
                  field === "document" ? toFts5(clauses) : `${field} : (${toFts5(clauses)})`
                }`.execute(db)
              ).rows
          ).map((r) => r.id),
        );
      const sorted = (list: Int32Array | null) => list && [...list].sort((a, b) => a - b);
      const clauses = parseQuery(keywords);
      return { stored: sorted(await matchByPostings(db, clauses, gin, field)), gin: sorted(await gin(clauses)) };
    };
    /** Runs `test` with the keys held by `minDocs` items or more stored, then stores the usual ones again. */
    const storing = async (minDocs: number, test: () => Promise<void>) => {
      try {
        expect(await rebuildPostings(db, { minDocs }), `keys held by ${minDocs} items`).toBeGreaterThan(0);
        await test();
      } finally {
        await rebuildPostings(db);
      }
    };

    it("answer what the full-text index answers, whichever keys are stored", async () => {
      await sql`DELETE FROM search_postings`.execute(db);
      const gin = await answers();
      expect(gin.filter((a) => (a as [string, Params, number[]])[2].length > 0).length).toBeGreaterThan(30);
      // Every key, then fewer and fewer: whole, partly stored and unstored clauses in every combination.
      for (const minDocs of [1, 2, 5, 40, 150])
        await storing(minDocs, async () => expect(await answers(), `keys held by ${minDocs} items or more`).toEqual(gin));
      // Five rebuilds and 378 searches: some 20 s on a busy machine.
    }, 90_000);

    it("are made at start when the index has none (a SQLite database from before migration 0025)", async () => {
      const kept = await rebuildPostings(db);
      expect(kept).toBeGreaterThan(0);
      const before = await answers();
      const count = async () => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM search_postings`.execute(db)).rows[0].n);
      expect(await count()).toBe(kept);
      await sql`DELETE FROM search_postings`.execute(db);
      expect(await ensureSearchIndex(db)).toBe(0);
      expect(await count()).toBe(kept);
      expect(await answers()).toEqual(before);
    });

    it("are what the search reads for a stored key", () =>
      storing(1, async () => {
        expect(await found("quorblex", fx.C1.id)).toBe(true);
        await sql`UPDATE search_postings SET bits = ${Buffer.alloc(0)} WHERE key IN ('quorblex', 'quorblex*')`.execute(db);
        expect(await found("quorblex", fx.C1.id)).toBe(false);
      }));

    // Every key is stored, so each word below is answered from bitsets alone, titles and tags included.
    it("change with the index: a retitled or new item is found by its words now, not by those it had", () =>
      storing(1, async () => {
        const B1 = fx.B1.id;
        const list = async (keywords: string) => ids((await searchContents(db, searchFilterSchema.parse({ keywords }), "en")).list);
        expect(await found("반짝숲", B1)).toBe(true);
        expect((await list("glimmerwood"))[0]).toBe(B1);
        // Glimmerwood moves from the title to the tags; the title takes words other items have in theirs.
        const moved = { title_en: "Zarnik Quorblex", title_ko: "큐블 곡", tags_en: "glimmerwood" };
        await db.updateTable("contents").set(moved).where("id", "=", B1).execute();
        await reindexContents(db, [B1]);
        expect(await found("반짝숲", B1)).toBe(false);
        for (const now of ["quorblex", "quorb", "큐블", "glimmerwood", "glimm"]) expect(await found(now, B1), now).toBe(true);
        // Best Match: a tag hit now, after the more popular B2; a title hit for zarnik, with Z1, before the tag hits.
        expect((await list("glimmerwood")).slice(0, 2)).toEqual([fx.B2.id, B1]);
        expect((await list("zarnik")).slice(0, 2).sort()).toEqual([B1, fx.Z1.id].sort());
        // An id past the end of every bitset.
        const { id: _id, ...copy } = fx.C1;
        const { id } = await db
          .insertInto("contents")
          .values({ ...copy, code: "ZZ9999999", title_en: "Glimmerwood Quorblex" })
          .returning("id")
          .executeTakeFirstOrThrow();
        await reindexContents(db, [id]);
        expect(await found("glimmerwood", id)).toBe(true);
        expect((await list("glimmerwood"))[0]).toBe(id);
        // Deleted from the catalog, it is found no more. On PostgreSQL it leaves the index by cascade, and its bits
        // go with it; SQLite's FTS5 row stays (the facets drop the id), and so do its bits: either way the bits
        // are what the full-text index says.
        await db.deleteFrom("contents").where("id", "=", id).execute();
        expect(await found("glimmerwood", id)).toBe(false);
        for (const field of ["document", "title", "tags"] as const) {
          const { stored, gin } = await raw("glimmerwood quorblex", field);
          expect(stored, field).not.toBeNull();
          expect(stored, field).toEqual(gin);
        }
        expect((await raw("glimmerwood", "tags")).stored).toContain(B1);
        for (const field of ["document", "title"] as const) {
          const { stored } = await raw("glimmerwood", field);
          if (ENGINE === "postgres") expect(stored, field).not.toContain(id);
          else expect(stored, field).toContain(id);
        }
        const { title_en, title_ko, tags_en } = fx.B1;
        await db.updateTable("contents").set({ title_en, title_ko, tags_en }).where("id", "=", B1).execute();
        await reindexContents(db, [B1]);
        expect(await found("quorblex", B1)).toBe(false);
        expect((await list("glimmerwood"))[0]).toBe(B1);
        // After all these changes, every stored answer is still exactly the GIN index's.
        for (const keywords of KEYWORDS)
          for (const field of ["document", "title", "tags"] as const) {
            const { stored, gin } = await raw(keywords, field);
            if (stored) expect(stored, `${keywords} in ${field}`).toEqual(gin);
          }
      }));
  });
});
