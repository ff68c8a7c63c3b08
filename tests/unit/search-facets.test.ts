import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Content } from "../../app/db/schema";
import { buildFacets, countListed, type FacetColumns, pageOf, parseIntList, selectMatches } from "../../app/market/search/facets.server";
import { searchFilterSchema } from "../../app/market/search/filter-schema.server";

// The in-memory filters, counts and page against a plain reading of the spec's filters, on random catalogs.

const TYPES = ["video", "icon", "audio", "font", "package"] as const;
const PRICES = ["paid", "free", "benefit"] as const;

type FacetRow = Pick<
  Content,
  | "id"
  | "contents_type"
  | "status"
  | "price_type"
  | "contents_type_sub"
  | "bpm"
  | "duration_ms"
  | "category_id"
  | "genre_id"
  | "mood_id"
  | "popularity"
  | "released_at"
>;

/** The columns as the loader reads them: active items only, codes for the types and prices, none as -1 or 0. */
function columnsOf(rows: FacetRow[]): FacetColumns {
  const active = rows.filter((r) => r.status === "active");
  const ints = (f: (r: FacetRow) => number) => Int32Array.from(active.map(f));
  return {
    id: ints((r) => r.id),
    type: ints((r) => TYPES.indexOf(r.contents_type) + 1),
    price: ints((r) => PRICES.indexOf(r.price_type) + 1),
    sub: ints((r) => r.contents_type_sub ?? 0),
    bpm: ints((r) => r.bpm ?? -1),
    duration: ints((r) => r.duration_ms ?? -1),
    category: ints((r) => r.category_id ?? 0),
    genre: ints((r) => r.genre_id ?? 0),
    mood: ints((r) => r.mood_id ?? 0),
    popularity: ints((r) => r.popularity),
    released: active.map((r) => r.released_at),
  };
}

const rowArb = (id: number) =>
  fc.record({
    id: fc.constant(id),
    contents_type: fc.constantFrom(...TYPES),
    status: fc.constantFrom("active", "active", "active", "discontinued"),
    price_type: fc.constantFrom("paid", "free", "benefit"),
    contents_type_sub: fc.constantFrom(null, 3001, 3002, 3003),
    bpm: fc.constantFrom(null, 0, 59, 60, 89, 90, 119, 120, 150),
    duration_ms: fc.constantFrom(null, 0, 9_999, 10_000, 29_999, 30_000, 59_999, 60_000, 180_000, 3_600_000),
    category_id: fc.option(fc.integer({ min: 1, max: 4 })),
    genre_id: fc.option(fc.integer({ min: 5, max: 8 })),
    mood_id: fc.option(fc.integer({ min: 9, max: 12 })),
    popularity: fc.integer({ min: 0, max: 5 }),
    released_at: fc.constantFrom("2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"),
  }) as fc.Arbitrary<FacetRow>;

const catalogArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 400 }), { minLength: 0, maxLength: 120 })
  .chain((ids) => fc.tuple(...ids.map(rowArb)));

const filterArb = fc.record(
  {
    type: fc.constantFrom("all", ...TYPES),
    sort: fc.constantFrom("accuracy", "popular", "recent"),
    price: fc.constantFrom("1", "2", "3"),
    categorys: fc.constantFrom("", "1", "5,10", "2,3,12"),
    duration_start: fc.constantFrom(0, 10, 60),
    duration_end: fc.constantFrom(30, 180, 3600),
    audioType: fc.constantFrom("all", "bgm", "se"),
    bpm_start: fc.constantFrom(0, 60, 90, 120),
    bpm_end: fc.constantFrom(60, 90, 120, 400),
    ai: fc.constantFrom("0", "1"),
    offset: fc.integer({ min: 0, max: 30 }),
    limit: fc.integer({ min: 1, max: 20 }),
  },
  { requiredKeys: ["type", "sort", "price", "offset", "limit"] },
);

function passes(r: FacetRow, f: ReturnType<typeof searchFilterSchema.parse>): boolean {
  if (r.status !== "active") return false;
  if (f.price === 1 && r.price_type !== "paid") return false;
  if (f.price === 3 && r.price_type === "paid") return false;
  if (f.categorys.length && ![r.category_id, r.genre_id, r.mood_id].some((c) => c !== null && f.categorys.includes(c))) return false;
  if (f.duration_start !== undefined && (r.duration_ms === null || r.duration_ms < f.duration_start * 1000)) return false;
  if (f.duration_end !== undefined && (r.duration_ms === null || r.duration_ms >= f.duration_end * 1000)) return false;
  if (f.bpm_start !== undefined && (r.bpm === null || r.bpm < f.bpm_start)) return false;
  if (f.bpm_end !== undefined && (r.bpm === null || r.bpm >= f.bpm_end)) return false;
  if (f.ai) return r.contents_type_sub === 3003;
  if (f.audioType === "bgm") return r.contents_type_sub === 3002 || r.contents_type_sub === 3003;
  if (f.audioType === "se") return r.contents_type_sub === 3001;
  return true;
}

describe("search facets", () => {
  it("count a list's active items as SQL's WHERE would: type, category, genre or mood, price types", () => {
    const listArb = fc.record(
      {
        type: fc.constantFrom(...TYPES),
        group: fc.record({ column: fc.constantFrom("category", "genre", "mood"), id: fc.integer({ min: 1, max: 12 }) }),
        prices: fc.constantFrom(["paid"], ["free", "benefit"], ["free"], ["benefit"]),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(catalogArb, listArb, (rows, q) => {
        const facets = buildFacets(columnsOf(rows), "1");
        const column = { category: "category_id", genre: "genre_id", mood: "mood_id" } as const;
        const expected = rows.filter(
          (r) =>
            r.status === "active" &&
            (!q.type || r.contents_type === q.type) &&
            (!q.group || r[column[q.group.column]] === q.group.id) &&
            (!q.prices || (q.prices as readonly string[]).includes(r.price_type)),
        ).length;
        expect(countListed(facets, q as Parameters<typeof countListed>[1])).toBe(expected);
      }),
    );
  });

  it("keep filtering exactly when one catalog's facets serve many searches (each filter set's bitset kept and reused)", () => {
    const [rows] = fc.sample(fc.tuple(...Array.from({ length: 150 }, (_, i) => rowArb(i * 2 + 1))), { numRuns: 1, seed: 42 });
    const facets = buildFacets(columnsOf(rows), "1");
    // Sampled filter sets, each followed by the same set with one field changed: a kept bitset must never answer
    // for a set that differs from its own in any field.
    const changes: Record<string, unknown>[] = [
      { price: "1" },
      { price: "2" },
      { price: "3" },
      { categorys: "5,10" },
      { duration_start: 10 },
      { duration_end: 180 },
      { bpm_start: 90 },
      { bpm_end: 120 },
      { ai: "1" },
      { audioType: "se" },
      { audioType: "bgm" },
    ];
    const filters = fc
      .sample(filterArb, { numRuns: 12, seed: 7 })
      .flatMap((raw) => [raw, ...changes.map((change) => ({ ...raw, ...change }))])
      .map((raw) => searchFilterSchema.safeParse(raw))
      .filter((p) => p.success)
      .map((p) => p.data);
    expect(filters.length).toBeGreaterThan(60);
    const matches = Int32Array.from(rows.map((r) => r.id));
    // Twice through more filter sets than are kept: the second round reads kept and recomputed bitsets alike.
    for (const round of [1, 2])
      for (const f of filters) {
        const { counts } = selectMatches(facets, matches, f);
        expect(counts.all, `round ${round} ${JSON.stringify(f)}`).toBe(rows.filter((r) => passes(r, f)).length);
        const { counts: everything } = selectMatches(facets, null, f);
        expect(everything.all).toBe(counts.all);
      }
  });

  it("count, filter and page as the spec's filters read, in every order, with and without tiers", () => {
    fc.assert(
      fc.property(catalogArb, filterArb, fc.integer(), (rows, raw, seed) => {
        const parsed = searchFilterSchema.safeParse(raw);
        fc.pre(parsed.success);
        const f = parsed.data;
        const facets = buildFacets(columnsOf(rows), "1");
        // A random subset of the catalog (and ids it does not hold) stands for the full-text matches.
        const matched = rows.filter((r) => (r.id * 31 + seed) % 3 !== 0).map((r) => r.id);
        const matches = Int32Array.from([...matched, 999, 1000]);
        const tierOf = (id: number) => 1 + ((id * 7 + seed) % 3 === 0 ? 0 : (id + seed) % 2 === 0 ? 1 : 2);
        const { counts, candidates } = selectMatches(facets, matches, f);

        const hits = rows.filter((r) => matched.includes(r.id) && passes(r, f));
        expect(counts.all).toBe(hits.length);
        for (const t of TYPES) expect(counts[t]).toBe(hits.filter((r) => r.contents_type === t).length);
        const ofType = hits.filter((r) => f.type === "all" || r.contents_type === f.type);
        expect([...candidates].sort((a, b) => a - b)).toEqual(ofType.map((r) => r.id).sort((a, b) => a - b));

        const order = f.sort === "recent" ? "recent" : "popular";
        const tiered = f.sort === "accuracy";
        const tiers = new Uint8Array(facets.capacity).fill(3);
        if (tiered) for (const r of rows) if (r.id < facets.capacity) tiers[r.id] = tierOf(r.id);
        const expected = [...ofType]
          .sort(
            (a, b) =>
              (tiered ? tierOf(a.id) - tierOf(b.id) : 0) ||
              (order === "recent"
                ? a.released_at < b.released_at
                  ? 1
                  : a.released_at > b.released_at
                    ? -1
                    : 0
                : b.popularity - a.popularity) ||
              a.id - b.id,
          )
          .slice(f.offset, f.offset + f.limit)
          .map((r) => r.id);
        expect(pageOf(facets, candidates, order, tiered ? tiers : null, f.offset, f.limit)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it("pages every order without filters: each item once, in order, at every offset", () => {
    fc.assert(
      fc.property(
        catalogArb,
        fc.constantFrom("all", "audio"),
        fc.boolean(),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 30 }),
        (rows, type, recent, offset, limit) => {
          const facets = buildFacets(columnsOf(rows), "1");
          const f = searchFilterSchema.parse({ type, offset, limit });
          const { candidates } = selectMatches(facets, null, f);
          const tiers = new Uint8Array(facets.capacity).fill(3);
          for (const r of rows) tiers[r.id] = 1 + (r.id % 3);
          const expected = rows
            .filter((r) => r.status === "active" && (type === "all" || r.contents_type === type))
            .sort(
              (a, b) =>
                (a.id % 3) - (b.id % 3) ||
                (recent ? (a.released_at < b.released_at ? 1 : a.released_at > b.released_at ? -1 : 0) : b.popularity - a.popularity) ||
                a.id - b.id,
            )
            .slice(offset, offset + limit)
            .map((r) => r.id);
          expect(pageOf(facets, candidates, recent ? "recent" : "popular", tiers, offset, limit)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads aggregated integer lists, negative ones too", () => {
    expect([...parseIntList("3,-1,42,0")]).toEqual([3, -1, 42, 0]);
    expect([...parseIntList("")]).toEqual([]);
    expect([...parseIntList(null)]).toEqual([]);
  });

  it("browses every active item when there is no keyword", () => {
    const rows: FacetRow[] = [1, 2, 3].map((id) => ({
      id,
      contents_type: "icon",
      status: id === 2 ? "discontinued" : "active",
      price_type: "free",
      contents_type_sub: null,
      bpm: null,
      duration_ms: null,
      category_id: null,
      genre_id: null,
      mood_id: null,
      popularity: id,
      released_at: "2026-01-01T00:00:00.000Z",
    }));
    const facets = buildFacets(columnsOf(rows), "1");
    const { counts, candidates } = selectMatches(facets, null, searchFilterSchema.parse({}));
    expect(counts.icon).toBe(2);
    expect(pageOf(facets, candidates, "popular", null, 0, 10)).toEqual([3, 1]);
  });
});
