import { type RawBuilder, sql } from "kysely";
import type { DB } from "../../db/db.server";
import { isPostgres } from "../../db/dialect";
import type { ContentsType } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { CARD_COLUMNS, type ContentCard, toCard } from "../catalog/cards.server";
import { listKeywords } from "../catalog/landing.server";
import { BPM_BANDS } from "../rules";
import { type Clause, editDistance, normalize, parseQuery, toFts5, toTsquery, typoCandidates } from "./analyze";
import { PRICE_FILTERS, SEARCH_TYPES, type SearchFilter, type SearchType } from "./filters";

export interface SearchResult {
  list: ContentCard[];
  total_count: number;
  counts: Record<SearchType, number>;
  /** The query actually searched when the typed one found nothing and a typo was corrected. */
  corrected: string | null;
  related: string[];
  recommended: string[];
}

/**
 * Items matching the clauses in the engine's full-text index. With `tiered`, each carries its Best Match
 * tier: 1 when its title holds the whole query, 2 when its tags do, 3 otherwise; without, tier is 0.
 */
function matches(db: DB, clauses: Clause[], tiered: boolean): RawBuilder<{ id: number; tier: number }> {
  if (isPostgres(db)) {
    // The tier is read from the row's own vector: no second scan of the index.
    const tier = tiered
      ? sql`CASE WHEN document @@ CAST(${toTsquery(clauses, "A")} AS tsquery) THEN 1 WHEN document @@ CAST(${toTsquery(clauses, "B")} AS tsquery) THEN 2 ELSE 3 END`
      : sql`0`;
    return sql`(SELECT content_id AS id, ${tier} AS tier FROM search_documents WHERE document @@ CAST(${toTsquery(clauses)} AS tsquery))`;
  }
  const expression = toFts5(clauses);
  const tier = tiered
    ? sql`CASE WHEN rowid IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ${`title : (${expression})`}) THEN 1 WHEN rowid IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ${`tags : (${expression})`}) THEN 2 ELSE 3 END`
    : sql`0`;
  return sql`(SELECT rowid AS id, ${tier} AS tier FROM search_fts WHERE search_fts MATCH ${expression})`;
}

function filtered(db: DB, f: SearchFilter, clauses: Clause[], tiered = false) {
  let q = clauses.length
    ? db.selectFrom(matches(db, clauses, tiered).as("m")).innerJoin("contents", "contents.id", "m.id")
    : db.selectFrom("contents");
  q = q.where("contents.status", "=", "active");
  if (f.price === PRICE_FILTERS.paid) q = q.where("contents.price_type", "=", "paid");
  if (f.price === PRICE_FILTERS.freeBenefit) q = q.where("contents.price_type", "in", ["free", "benefit"]);
  if (f.categorys.length) {
    const ids = f.categorys;
    q = q.where((eb) =>
      eb.or([eb("contents.category_id", "in", ids), eb("contents.genre_id", "in", ids), eb("contents.mood_id", "in", ids)]),
    );
  }
  if (f.duration_start !== undefined) q = q.where("contents.duration_ms", ">=", f.duration_start * 1000);
  if (f.duration_end !== undefined) q = q.where("contents.duration_ms", "<", f.duration_end * 1000);
  if (f.bpm_start !== undefined) q = q.where("contents.bpm", ">=", f.bpm_start);
  if (f.bpm_end !== undefined) q = q.where("contents.bpm", "<", f.bpm_end);
  if (f.ai) q = q.where("contents.contents_type_sub", "=", 3003);
  else if (f.audioType === "bgm") q = q.where("contents.contents_type_sub", "in", [3002, 3003]);
  else if (f.audioType === "se") q = q.where("contents.contents_type_sub", "=", 3001);
  return q;
}

/**
 * Counts per type, then the page: first the ordered ids (answered from the covering index), then the cards
 * of those ids. Best Match puts items whose title holds the whole query first, then those whose tags hold
 * it, then the rest (descriptions and mixed hits), each tier by popularity.
 */
async function run(db: DB, f: SearchFilter, clauses: Clause[]) {
  const countRows = await filtered(db, f, clauses)
    .select(["contents.contents_type", sql<number>`count(*)`.as("n")])
    .groupBy("contents.contents_type")
    .execute();
  const counts = Object.fromEntries(SEARCH_TYPES.map((t) => [t, 0])) as Record<SearchType, number>;
  for (const r of countRows) {
    counts[r.contents_type as SearchType] = Number(r.n);
    counts.all += Number(r.n);
  }
  const tiered = clauses.length > 0 && f.sort === "accuracy";
  let ids = filtered(db, f, clauses, tiered).select("contents.id");
  if (f.type !== "all") ids = ids.where("contents.contents_type", "=", f.type as ContentsType);
  if (f.sort === "recent") ids = ids.orderBy("contents.released_at", "desc");
  else if (f.sort === "popular" || !clauses.length) ids = ids.orderBy("contents.popularity", "desc");
  else ids = ids.orderBy(sql`m.tier`).orderBy("contents.popularity", "desc");
  const pageIds = (await ids.orderBy("contents.id").offset(f.offset).limit(f.limit).execute()).map((r) => r.id);
  const rows = pageIds.length
    ? await db
        .selectFrom("contents")
        .select(CARD_COLUMNS)
        .select(["contents.tags_ko", "contents.tags_en"])
        .where("contents.id", "in", pageIds)
        .execute()
    : [];
  const order = new Map(pageIds.map((id, i) => [id, i]));
  rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { rows, counts };
}

/** Corrects Latin words of five letters or more to a catalog word one edit away. */
async function correctTypos(db: DB, keywords: string): Promise<string | null> {
  let corrected = normalize(keywords);
  let changed = false;
  for (const word of typoCandidates(keywords)) {
    const known = await db.selectFrom("search_terms").select("term").where("term", "=", word).executeTakeFirst();
    if (known) continue;
    const near = await db
      .selectFrom("search_terms")
      .select("term")
      .where("length", ">=", word.length - 1)
      .where("length", "<=", word.length + 1)
      .orderBy("term")
      .execute();
    const best = near.map((r) => r.term).find((t) => editDistance(word, t, 1) <= 1);
    if (best) {
      corrected = corrected.replace(new RegExp(`(?<![a-z])${word}(?![a-z])`), best);
      changed = true;
    }
  }
  return changed ? corrected : null;
}

/** Keyword search with the spec's filters, per-type counts, related words and recommended keywords. */
export async function searchContents(db: DB, f: SearchFilter, locale: Locale): Promise<SearchResult> {
  let clauses = parseQuery(f.keywords);
  let result = await run(db, f, clauses);
  let corrected: string | null = null;
  if (clauses.length && result.counts.all === 0) {
    corrected = await correctTypos(db, f.keywords);
    if (corrected) {
      clauses = parseQuery(corrected);
      result = await run(db, f, clauses);
    }
  }
  const queryWords = new Set(normalize(corrected ?? f.keywords).split(/\s+/));
  const tagCounts = new Map<string, number>();
  for (const r of result.rows)
    for (const tag of (locale === "ko" ? r.tags_ko : r.tags_en)
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean)) {
      if (!queryWords.has(normalize(tag))) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
    }
  const related = clauses.length
    ? [...tagCounts.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 8)
        .map(([t]) => t)
    : [];
  const recommended = await listKeywords(db, f.type === "all" ? "home" : f.type, locale);
  return {
    list: result.rows.map((r) => toCard(r, locale)),
    total_count: f.type === "all" ? result.counts.all : result.counts[f.type],
    counts: result.counts,
    corrected,
    related,
    recommended,
  };
}

export interface FilterOptions {
  type: SearchType;
  sorts: readonly string[];
  prices: { value: number; code: string }[];
  categories: { id: number; name: string }[];
  genres: { id: number; name: string }[];
  durations: { code: string; start?: number; end?: number }[];
  audioTypes: readonly string[];
  bpmBands: { code: string; start: number; end?: number }[];
  ai: boolean;
}

/** What the filters of a search type offer (section 2): audio adds type, duration, BPM and AI BGM; video duration. */
export async function searchFilterOptions(db: DB, type: SearchType, locale: Locale): Promise<FilterOptions> {
  const terms = async (kind: "category" | "genre", space: ContentsType) =>
    (
      await db
        .selectFrom("taxonomy")
        .select(["id", "name_ko", "name_en"])
        .where("kind", "=", kind)
        .where("space", "=", space)
        .orderBy("sort")
        .execute()
    ).map((r) => ({ id: r.id, name: locale === "ko" ? r.name_ko : r.name_en }));
  const durations =
    type === "video"
      ? [
          { code: "under10", end: 10 },
          { code: "10to30", start: 10, end: 30 },
          { code: "30to60", start: 30, end: 60 },
          { code: "over60", start: 60 },
        ]
      : type === "audio"
        ? [
            { code: "under30", end: 30 },
            { code: "30to60", start: 30, end: 60 },
            { code: "1to3min", start: 60, end: 180 },
            { code: "over3min", start: 180 },
          ]
        : [];
  return {
    type,
    sorts: ["accuracy", "popular", "recent"],
    prices: [
      { value: PRICE_FILTERS.all, code: "all" },
      { value: PRICE_FILTERS.paid, code: "paid" },
      { value: PRICE_FILTERS.freeBenefit, code: "freeBenefit" },
    ],
    categories: type === "all" ? [] : await terms("category", type),
    genres: type === "audio" ? await terms("genre", "audio") : [],
    durations,
    audioTypes: type === "audio" ? ["all", "bgm", "se"] : [],
    bpmBands: type === "audio" ? BPM_BANDS.map((b) => ({ code: b.code, start: b.min, end: b.max ?? undefined })) : [],
    ai: type === "audio",
  };
}
