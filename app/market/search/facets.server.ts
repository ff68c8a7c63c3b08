import type { DB } from "../../db/db.server";
import type { Content, ContentsType } from "../../db/schema";
import { PRICE_FILTERS, SEARCH_TYPES, type SearchFilter, type SearchType } from "./filters";

/**
 * The catalog columns the search filters, counts and orders by, held in memory as typed arrays indexed by
 * content id (what search engines call doc values). The full-text index answers which items match; these
 * arrays then apply the filters, count per type and pick the page in a few nanoseconds per match, where a
 * join to the catalog costs about half a microsecond per match (a broad word matches a third of the catalog).
 *
 * Loaded from the contents table and tagged with the catalog version (search_state, bumped by triggers on
 * every change of these columns), so each server sees at its next search that its copy is stale and reloads.
 */
export interface Facets {
  version: string;
  /** Largest id + 1. */
  capacity: number;
  /** 0 when the id is absent or not active; otherwise 1 + the index in CONTENT_TYPES. */
  type: Uint8Array;
  /** 1 paid, 2 free, 3 benefit. */
  price: Uint8Array;
  sub: Int32Array;
  /** -1 when the item has none. */
  bpm: Int32Array;
  /** Milliseconds; -1 when the item has none. */
  duration: Int32Array;
  category: Int32Array;
  genre: Int32Array;
  mood: Int32Array;
  /** Position of each active item by popularity (descending, then id), and the id at each position. */
  popularRank: Int32Array;
  byPopular: Int32Array;
  /** Position of each active item by release (newest first, then id), and the id at each position. */
  recentRank: Int32Array;
  byRecent: Int32Array;
}

const CONTENT_TYPES = SEARCH_TYPES.filter((t): t is ContentsType => t !== "all");
const PRICE_CODES = { paid: 1, free: 2, benefit: 3 } as const;

async function catalogVersion(db: DB): Promise<string> {
  const row = await db.selectFrom("search_state").select("version").where("id", "=", 1).executeTakeFirst();
  return String(row?.version ?? 0);
}

/** The catalog columns one item contributes. */
export type FacetRow = Pick<
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

async function load(db: DB, version: string): Promise<Facets> {
  const rows = await db
    .selectFrom("contents")
    .select([
      "id",
      "contents_type",
      "status",
      "price_type",
      "contents_type_sub",
      "bpm",
      "duration_ms",
      "category_id",
      "genre_id",
      "mood_id",
      "popularity",
      "released_at",
    ])
    .execute();
  return buildFacets(rows, version);
}

export function buildFacets(rows: FacetRow[], version: string): Facets {
  const capacity = rows.reduce((max, r) => Math.max(max, r.id), 0) + 1;
  const f: Facets = {
    version,
    capacity,
    type: new Uint8Array(capacity),
    price: new Uint8Array(capacity),
    sub: new Int32Array(capacity),
    bpm: new Int32Array(capacity).fill(-1),
    duration: new Int32Array(capacity).fill(-1),
    category: new Int32Array(capacity),
    genre: new Int32Array(capacity),
    mood: new Int32Array(capacity),
    popularRank: new Int32Array(capacity),
    byPopular: new Int32Array(0),
    recentRank: new Int32Array(capacity),
    byRecent: new Int32Array(0),
  };
  const popularity = new Float64Array(capacity);
  const released: string[] = new Array(capacity);
  const active: number[] = [];
  for (const r of rows) {
    if (r.status !== "active") continue;
    const id = r.id;
    active.push(id);
    f.type[id] = CONTENT_TYPES.indexOf(r.contents_type) + 1;
    f.price[id] = PRICE_CODES[r.price_type] ?? 0;
    f.sub[id] = r.contents_type_sub ?? 0;
    f.bpm[id] = r.bpm ?? -1;
    f.duration[id] = r.duration_ms ?? -1;
    f.category[id] = r.category_id ?? 0;
    f.genre[id] = r.genre_id ?? 0;
    f.mood[id] = r.mood_id ?? 0;
    popularity[id] = Number(r.popularity);
    released[id] = r.released_at;
  }
  f.byPopular = Int32Array.from(active).sort((a, b) => popularity[b] - popularity[a] || a - b);
  f.byRecent = Int32Array.from(active).sort((a, b) => (released[a] < released[b] ? 1 : released[a] > released[b] ? -1 : a - b));
  f.byPopular.forEach((id, i) => {
    f.popularRank[id] = i;
  });
  f.byRecent.forEach((id, i) => {
    f.recentRank[id] = i;
  });
  return f;
}

const cache = new WeakMap<DB, Promise<Facets>>();

/** The facets of the catalog as it is now: reloaded when the catalog version moved since they were loaded. */
export async function currentFacets(db: DB): Promise<Facets> {
  const version = await catalogVersion(db);
  const held = cache.get(db);
  if (held) {
    const facets = await held.catch(() => null);
    if (facets && facets.version === version) return facets;
    // Another search may already be reloading this version.
    const again = cache.get(db);
    if (again && again !== held) {
      const other = await again.catch(() => null);
      if (other && other.version === version) return other;
    }
  }
  const loading = load(db, version);
  cache.set(db, loading);
  return loading;
}

/** A compiled filter: whether an active item passes the spec's search filters (section 3). */
function compile(fx: Facets, f: SearchFilter): (id: number) => boolean {
  const checks: ((id: number) => boolean)[] = [];
  if (f.price === PRICE_FILTERS.paid) checks.push((id) => fx.price[id] === PRICE_CODES.paid);
  if (f.price === PRICE_FILTERS.freeBenefit) checks.push((id) => fx.price[id] === PRICE_CODES.free || fx.price[id] === PRICE_CODES.benefit);
  if (f.categorys.length) {
    const wanted = new Set(f.categorys);
    checks.push((id) => wanted.has(fx.category[id]) || wanted.has(fx.genre[id]) || wanted.has(fx.mood[id]));
  }
  const range = (column: Int32Array, start?: number, end?: number) => {
    if (start === undefined && end === undefined) return;
    const lo = start ?? Number.NEGATIVE_INFINITY;
    const hi = end ?? Number.POSITIVE_INFINITY;
    checks.push((id) => column[id] !== -1 && column[id] >= lo && column[id] < hi);
  };
  range(
    fx.duration,
    f.duration_start === undefined ? undefined : f.duration_start * 1000,
    f.duration_end === undefined ? undefined : f.duration_end * 1000,
  );
  range(fx.bpm, f.bpm_start, f.bpm_end);
  if (f.ai) checks.push((id) => fx.sub[id] === 3003);
  else if (f.audioType === "bgm") checks.push((id) => fx.sub[id] === 3002 || fx.sub[id] === 3003);
  else if (f.audioType === "se") checks.push((id) => fx.sub[id] === 3001);
  return (id) => {
    for (const check of checks) if (!check(id)) return false;
    return true;
  };
}

export interface Selection {
  counts: Record<SearchType, number>;
  /** Active items of the filter's type that pass the filters. */
  candidates: Int32Array;
}

/**
 * Applies the filters to the matched ids (every active item when `matches` is null): counts per type, and
 * the items of the filter's type.
 */
export function selectMatches(fx: Facets, matches: Int32Array | null, f: SearchFilter): Selection {
  const pass = compile(fx, f);
  const perType = new Array<number>(CONTENT_TYPES.length + 1).fill(0);
  const wantedType = f.type === "all" ? 0 : CONTENT_TYPES.indexOf(f.type) + 1;
  const source = matches ?? fx.byPopular;
  const candidates = new Int32Array(source.length);
  let n = 0;
  for (let i = 0; i < source.length; i++) {
    const id = source[i];
    if (id <= 0 || id >= fx.capacity) continue;
    const type = fx.type[id];
    if (type === 0 || !pass(id)) continue;
    perType[type]++;
    if (wantedType === 0 || type === wantedType) candidates[n++] = id;
  }
  const counts = { all: 0 } as Record<SearchType, number>;
  CONTENT_TYPES.forEach((t, i) => {
    counts[t] = perType[i + 1];
    counts.all += perType[i + 1];
  });
  return { counts, candidates: candidates.subarray(0, n) };
}

/**
 * One page of the candidates in order: by `tiers` first when given (1 title, 2 tags, 3 the rest; the Best
 * Match order), then by popularity or by release, then id. Each candidate gets a key tier × n + rank, marked in
 * a bitset over the key space; the page is read off the bitset in order, so no sort of all the matches.
 */
export function pageOf(
  fx: Facets,
  candidates: Int32Array,
  order: "popular" | "recent",
  tiers: Uint8Array | null,
  offset: number,
  limit: number,
): number[] {
  const rank = order === "recent" ? fx.recentRank : fx.popularRank;
  const byRank = order === "recent" ? fx.byRecent : fx.byPopular;
  const n = byRank.length;
  if (!n || !candidates.length) return [];
  const bits = new Uint32Array(Math.ceil((n * (tiers ? 3 : 1)) / 32));
  for (let i = 0; i < candidates.length; i++) {
    const id = candidates[i];
    const key = (tiers ? tiers[id] - 1 : 0) * n + rank[id];
    bits[key >>> 5] |= 1 << (key & 31);
  }
  const page: number[] = [];
  let skip = offset;
  for (let w = 0; w < bits.length && page.length < limit; w++) {
    let word = bits[w];
    while (word !== 0 && page.length < limit) {
      const low = word & -word;
      const key = w * 32 + (31 - Math.clz32(low));
      word ^= low;
      if (skip > 0) skip--;
      else page.push(byRank[key % n]);
    }
  }
  return page;
}
