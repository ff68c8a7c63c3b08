import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import { isPostgres } from "../../db/dialect";
import type { ContentsType } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { CARD_COLUMNS, type ContentCard, toCard } from "../catalog/cards.server";
import { listKeywords } from "../catalog/landing.server";
import { BPM_BANDS } from "../rules";
import { type Clause, editDistance, normalize, parseQuery, toFts5, toTsquery, typoCandidates } from "./analyze";
import { currentFacets, type Facets, pageOf, parseIntList, selectMatches } from "./facets.server";
import { PRICE_FILTERS, type SearchFilter, type SearchType } from "./filters";
import { matchByPostings } from "./postings.server";

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
 * The ids of the items whose text matches the clauses. `field` narrows the match to titles or tags, for the
 * Best Match tiers. Only the text index is read: filters are applied to the result (facets.server.ts). The
 * stored bitsets of frequent keys answer what they can (postings.server.ts).
 */
async function matchIds(db: DB, clauses: Clause[], field?: "title" | "tags"): Promise<Int32Array> {
  return (await storedMatch(db, clauses, field)) ?? ginIds(db, clauses, field);
}

/** The ids matching the clauses when the stored bitsets answer part of them; otherwise null. */
function storedMatch(db: DB, clauses: Clause[], field?: "title" | "tags"): Promise<Int32Array | null> {
  return matchByPostings(db, clauses, (rest) => ginIds(db, rest, field), field);
}

/**
 * The ids matching the clauses, from the full-text index, in one aggregated value (a row per match would cost
 * more than the match).
 */
async function ginIds(db: DB, clauses: Clause[], field?: "title" | "tags"): Promise<Int32Array> {
  if (isPostgres(db)) {
    const query = sql`CAST(${toTsquery(clauses)} AS tsquery)`;
    const { rows } = await (field
      ? sql<{ ids: string | null }>`SELECT string_agg(content_id::text, ',') AS ids FROM search_fields WHERE ${sql.ref(field)} @@ ${query}`
      : sql<{ ids: string | null }>`SELECT string_agg(content_id::text, ',') AS ids FROM search_documents WHERE document @@ ${query}`
    ).execute(db);
    return parseIntList(rows[0]?.ids);
  }
  const expression = field ? `${field} : (${toFts5(clauses)})` : toFts5(clauses);
  const { rows } = await sql<{
    ids: string | null;
  }>`SELECT group_concat(rowid) AS ids FROM search_fts WHERE search_fts MATCH ${expression}`.execute(db);
  return parseIntList(rows[0]?.ids);
}

/**
 * The Best Match tier of the candidates (1 title, 2 tags, 3 the rest), as far as the first `need` of them in
 * Best Match order depend on it. When the stored bitsets answer the query's title match, the title hits and, if
 * they do not fill the page, the tag hits are read from them (and from the full-text index for what they do not
 * answer). Otherwise PostgreSQL first reads the tiers of the most popular candidates from their own title and
 * tag vectors, by key: when their titles alone fill the page, no other item can come before them (every other
 * title hit is less popular). Failing that, and always on SQLite (where a title-only match of a word no stored key
 * answers is as narrow as the match was), the title hits
 * come from the full-text index. If they do not fill the page, the tag hits are needed: on PostgreSQL, when the
 * candidates read first hold enough of them, no other tag hit can come before those (and the whole tag match,
 * the largest of the three, is not read); otherwise, and on SQLite, they come from the full-text index.
 */
async function bestMatchTiers(db: DB, facets: Facets, clauses: Clause[], candidates: Int32Array, need: number, probes: number[]) {
  const tiers = new Uint8Array(facets.capacity).fill(3);
  const mark = (ids: Int32Array, tier: number) => {
    for (const id of ids) if (id < facets.capacity && tiers[id] > tier) tiers[id] = tier;
  };
  const titled = () => {
    let n = 0;
    for (const id of candidates) if (tiers[id] === 1) n++;
    return n;
  };
  let probed: { id: number; tier: number }[] = [];
  const titles = await storedMatch(db, clauses, "title");
  if (titles) {
    mark(titles, 1);
    if (titled() < need) mark(await matchIds(db, clauses, "tags"), 2);
    return tiers;
  }
  if (isPostgres(db)) {
    for (const size of probes) {
      const probe = pageOf(facets, candidates, "popular", null, 0, Math.max(size, need));
      const { rows } = await sql<{
        id: number;
        tier: number;
      }>`SELECT content_id AS id, CASE WHEN title @@ CAST(${toTsquery(clauses)} AS tsquery) THEN 1 WHEN tags @@ CAST(${toTsquery(clauses)} AS tsquery) THEN 2 ELSE 3 END AS tier FROM search_fields WHERE content_id = ANY(CAST(${`{${probe.join(",")}}`} AS integer[]))`.execute(
        db,
      );
      if (rows.filter((r) => r.tier === 1).length >= need || probe.length === candidates.length) {
        for (const r of rows) tiers[r.id] = r.tier;
        return tiers;
      }
      probed = rows;
    }
  }
  mark(await ginIds(db, clauses, "title"), 1);
  const hits = titled();
  if (hits >= need) return tiers;
  const tagged = probed.filter((r) => r.tier === 2);
  if (tagged.length >= need - hits) {
    for (const r of tagged) tiers[r.id] = 2;
    return tiers;
  }
  mark(await matchIds(db, clauses, "tags"), 2);
  return tiers;
}

/**
 * How many of the most popular candidates PostgreSQL reads the tiers of, in turn, before asking for every
 * title hit. One probe: at 1,000,000 items a second one of 4,000 candidates cost 15 to 50 ms (each row's two
 * vectors read from the heap), more than the title match it was to spare, since a title key that 1% of the
 * catalog holds is answered by the stored bitsets and any other is narrower.
 */
const PROBES = [500];

export interface SearchOptions {
  /** The PostgreSQL Best Match probe sizes (tests make them small to reach every path on a small catalog). */
  probes?: number[];
}

/**
 * Counts per type, then the page. Best Match puts items whose title holds the whole query first, then those
 * whose tags hold it, then the rest (descriptions and mixed hits), each tier by popularity; the tags are only
 * asked for when the titles do not fill the page.
 */
async function run(db: DB, f: SearchFilter, clauses: Clause[], options: SearchOptions) {
  const facets = await currentFacets(db);
  const matched = clauses.length ? await matchIds(db, clauses) : null;
  const { counts, candidates } = selectMatches(facets, matched, f);
  const tiers =
    clauses.length && f.sort === "accuracy" && candidates.length
      ? await bestMatchTiers(db, facets, clauses, candidates, f.offset + f.limit, options.probes ?? PROBES)
      : null;
  const pageIds = pageOf(facets, candidates, f.sort === "recent" ? "recent" : "popular", tiers, f.offset, f.limit);
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
export async function searchContents(db: DB, f: SearchFilter, locale: Locale, options: SearchOptions = {}): Promise<SearchResult> {
  let clauses = parseQuery(f.keywords);
  let result = await run(db, f, clauses, options);
  let corrected: string | null = null;
  if (clauses.length && result.counts.all === 0) {
    corrected = await correctTypos(db, f.keywords);
    if (corrected) {
      clauses = parseQuery(corrected);
      result = await run(db, f, clauses, options);
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
