import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import { isPostgres } from "../../db/dialect";
import { type Alternative, type Clause, type QueryToken, toFts5, toTsquery } from "./analyze";
import { parseIntList } from "./facets.server";

/**
 * The frequent index keys as bitsets over content ids (table search_postings), on both engines.
 *
 * A full-text match learns the id of each matching item one by one (PostgreSQL's GIN index from the heap row of
 * each match, SQLite's FTS5 from its doclists through the virtual table), so its cost grows with the matches, and
 * a broad word (icon, 배경음악) matches a third of the catalog. The keys that at least 1% of the items hold are
 * kept instead as one bitset each: a query whose every word is such a key is answered by reading a few bitsets
 * and combining them, whatever the number of matches. A key is a token (`icon`) or a token prefix of three
 * characters or more (`ico*`), the two things a query asks the index for. Titles and tags, which Best Match
 * ranks by, have their own keys (`t:icon`, `g:ico*`). Each stored bitset is exact: it is built from the index
 * and changed with it in the same transaction (reindexContents), so a query answered from bitsets finds what
 * the full-text index would. Keys that are not stored are matched by the full-text index as before; which keys
 * are stored only decides speed. Nothing is held in memory between searches: a search reads the bitsets of its
 * own keys (capacity / 8 bytes each: 12.5 kB at 100,000 items, 125 kB at 1,000,000).
 *
 * On SQLite an item deleted from the catalog keeps its FTS5 row (the facets drop it from every answer), and
 * its bits with it, so the bitsets stay what FTS5 answers; PostgreSQL's index rows leave by cascade and
 * migration 0011's triggers clear their bits.
 */

/**
 * The shortest prefix a query asks for (parseQuery: Latin words match as prefixes from three letters). The
 * triggers of migration 0011, which clear a deleted item's bits, make keys the same way.
 */
const MIN_PREFIX = 3;
/** A key is stored when at least 1% of the catalog holds it, and at least this many items. */
const MIN_DOCS_FLOOR = 64;

const hotThreshold = (capacity: number) => Math.max(MIN_DOCS_FLOOR, Math.ceil(capacity / 100));

/** What a key covers: the whole item (its full-text vector, all of its FTS5 row), its title or its tags. */
export type Field = "document" | "title" | "tags";
/**
 * Where each field's PostgreSQL vectors are, its FTS5 column (none: the whole row), and how its keys begin
 * (tokens are letters and digits, so `:` and `*` are free).
 */
const FIELDS: Record<Field, { table: string; column: string; fts: "title" | "tags" | null; mark: string }> = {
  document: { table: "search_documents", column: "document", fts: null, mark: "" },
  title: { table: "search_fields", column: "title", fts: "title", mark: "t:" },
  tags: { table: "search_fields", column: "tags", fts: "tags", mark: "g:" },
};

/** The rows of the keys (key text, bits a Buffer: bytea on PostgreSQL, blob on SQLite). */
async function readPostings(db: DB, keys: string[], lock = false): Promise<{ key: string; bits: Uint8Array }[]> {
  if (isPostgres(db)) {
    if (lock)
      return (
        await sql<{
          key: string;
          bits: Uint8Array;
        }>`SELECT key, bits FROM search_postings WHERE key = ANY(${keys}) ORDER BY key FOR UPDATE`.execute(db)
      ).rows;
    // Read as base64 text: a third smaller on the wire than bytea's hex text, and decoded natively.
    const { rows } = await sql<{
      key: string;
      b64: string;
    }>`SELECT key, encode(bits, 'base64') AS b64 FROM search_postings WHERE key = ANY(${keys})`.execute(db);
    return rows.map((r) => ({ key: r.key, bits: Buffer.from(r.b64, "base64") }));
  }
  // SQLite has no row locks: the write transaction that changes them holds the whole database.
  const rows: { key: string; bits: Uint8Array }[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    const part = keys.slice(i, i + 500);
    const { rows: found } = await sql<{
      key: string;
      bits: Uint8Array;
    }>`SELECT key, bits FROM search_postings WHERE key IN (${sql.join(part)}) ORDER BY key`.execute(db);
    rows.push(...found);
  }
  return rows;
}

/** The key a query token is looked up by in a field. `*` marks a prefix. */
export const keyOf = (t: QueryToken, field: Field = "document") => `${FIELDS[field].mark}${t.text}${t.prefix ? "*" : ""}`;

/** The keys of a field's tokens: each token, and each of its prefixes of three characters or more. */
export function postingKeys(tokens: Iterable<string>, field: Field = "document", into = new Set<string>()): Set<string> {
  const mark = FIELDS[field].mark;
  for (const token of tokens) {
    into.add(mark + token);
    const chars = [...token];
    for (let n = MIN_PREFIX; n <= chars.length; n++) into.add(`${mark}${chars.slice(0, n).join("")}*`);
  }
  return into;
}

/** An item's tokens per field, as the index holds them (the document is the title, tags and description). */
export type ItemTokens = Record<Field, string[]>;

/** Every key an item holds. */
export function itemKeys(item: ItemTokens): Set<string> {
  const keys = new Set<string>();
  for (const field of Object.keys(FIELDS) as Field[]) postingKeys(item[field], field, keys);
  return keys;
}

// Bitsets: bit (id & 7) of byte (id >> 3); shorter than the largest id when the last items lack the key.

export const hasBit = (bits: Uint8Array, id: number) => id >> 3 < bits.length && (bits[id >> 3] & (1 << (id & 7))) !== 0;

function withBit(bits: Uint8Array, id: number, on: boolean): Uint8Array {
  let out = bits;
  if (on && id >> 3 >= bits.length) {
    out = new Uint8Array((id >> 3) + 1);
    out.set(bits);
  }
  if (on) out[id >> 3] |= 1 << (id & 7);
  else if (id >> 3 < out.length) out[id >> 3] &= ~(1 << (id & 7));
  return out;
}

/** A bitset as a query parameter (node-postgres sends a Buffer as bytea). */
const bytea = (bits: Uint8Array) => Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength);

/** A bitset of the ids, for ids below `capacity` (by default, the largest + 1). */
export function bitsOf(ids: ArrayLike<number>, capacity?: number): Uint8Array {
  let size = capacity ?? 0;
  if (capacity === undefined) for (let i = 0; i < ids.length; i++) size = Math.max(size, ids[i] + 1);
  const bits = new Uint8Array(Math.ceil(size / 8));
  for (let i = 0; i < ids.length; i++) bits[ids[i] >> 3] |= 1 << (ids[i] & 7);
  return bits;
}

function and(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.min(a.length, b.length));
  for (let i = 0; i < out.length; i++) out[i] = a[i] & b[i];
  return out;
}

function or(a: Uint8Array, b: Uint8Array): Uint8Array {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  const out = Uint8Array.from(long);
  for (let i = 0; i < short.length; i++) out[i] |= short[i];
  return out;
}

/** Whether a Uint32Array reads bytes little-end first (then bit k of a word is bit k & 7 of byte k >> 3). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The ids of the set bits, ascending. Read 32 bits at a time (a third of a catalog is some 300,000 ids at 1,000,000). */
export function idsOf(bits: Uint8Array): Int32Array {
  let words: Uint32Array | Uint8Array = bits;
  let width = 8;
  if (LITTLE_ENDIAN) {
    words = new Uint32Array(Math.ceil(bits.length / 4));
    new Uint8Array(words.buffer).set(bits);
    width = 32;
  }
  let n = 0;
  for (let i = 0; i < words.length; i++) n += popcount32(words[i]);
  const out = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < words.length; i++) {
    let word = words[i];
    while (word !== 0) {
      const low = word & -word;
      out[k++] = i * width + (31 - Math.clz32(low));
      word ^= low;
    }
  }
  return out;
}

/**
 * The ids matching the clauses when the stored bitsets answer at least part of the query; null when they answer
 * none of it, so the caller asks the full-text index (`gin`: PostgreSQL's GIN index or SQLite's FTS5) for all of
 * it. An alternative (tokens that must all match) is stored when all its tokens are. A clause with only stored
 * alternatives is answered from bitsets alone. When some clause has no stored alternative, the full-text index
 * matches the clauses not wholly stored, together (the unstored clause keeps that match narrow), and the bitsets
 * filter the result. Otherwise a clause with some stored alternatives asks the full-text index for the others only.
 */
export async function matchByPostings(
  db: DB,
  clauses: Clause[],
  gin: (clauses: Clause[]) => Promise<Int32Array>,
  field: Field = "document",
): Promise<Int32Array | null> {
  const key = (t: QueryToken) => keyOf(t, field);
  const keys = [...new Set(clauses.flat(2).map(key))];
  if (!keys.length) return null;
  const rows = await readPostings(db, keys);
  if (!rows.length) return null;
  const stored = new Map(rows.map((r) => [r.key, r.bits]));
  const isStored = (alt: Alternative) => alt.length > 0 && alt.every((t) => stored.has(key(t)));
  const altBits = (alt: Alternative) => alt.map((t) => stored.get(key(t)) as Uint8Array).reduce(and);
  const whole = clauses.filter((c) => c.length > 0 && c.every(isStored));
  const partial = clauses.filter((c) => !whole.includes(c) && c.some(isStored));
  const unstored = clauses.filter((c) => !c.some(isStored));
  // Nothing stored, or nothing but what the full-text match of the unstored clauses would read anyway.
  if (!whole.length && (unstored.length || !partial.length)) return null;
  const sets = whole.map((c) => c.map(altBits).reduce(or));
  if (unstored.length) {
    const others = await gin([...partial, ...unstored]);
    const set = sets.reduce(and);
    return others.filter((id) => hasBit(set, id));
  }
  for (const clause of partial) {
    const rest = await gin([clause.filter((alt) => !isStored(alt))]);
    sets.push(clause.filter(isStored).map(altBits).reduce(or, bitsOf(rest)));
  }
  return idsOf(sets.reduce(and));
}

/**
 * Rebuilds the stored bitsets from the full-text index: for each field, every token at least `minDocs` items hold
 * there (by default 1% of the catalog), and every prefix their tokens together reach that many with (a bound:
 * an item may hold several tokens of one prefix, so each prefix is counted exactly, by the index, before it is
 * kept). Returns the number of keys kept.
 */
export async function rebuildPostings(db: DB, options: { minDocs?: number } = {}): Promise<number> {
  const pg = isPostgres(db);
  await sql`DELETE FROM search_postings`.execute(db);
  const { rows: top } = await (pg
    ? sql<{ max: number | null }>`SELECT max(content_id) AS max FROM search_documents`
    : sql<{ max: number | null }>`SELECT max(rowid) AS max FROM search_fts`
  ).execute(db);
  const capacity = (top[0]?.max ?? 0) + 1;
  const minDocs = options.minDocs ?? hotThreshold(capacity);
  let kept = 0;
  for (const [field, { table, column, fts }] of Object.entries(FIELDS)) {
    const candidates = pg ? await pgCandidates(db, table, column, minDocs) : await sqliteCandidates(db, fts, minDocs);
    for (const key of candidates) {
      const token: QueryToken = key.endsWith("*") ? { text: key.slice(0, -1), prefix: true } : { text: key, prefix: false };
      const clauses = [[[token]]];
      const { rows } = await (pg
        ? sql<{ ids: string | null }>`SELECT string_agg(content_id::text, ',') AS ids FROM ${sql.table(table)}
        WHERE ${sql.ref(column)} @@ CAST(${toTsquery(clauses)} AS tsquery)`
        : sql<{ ids: string | null }>`SELECT group_concat(rowid) AS ids FROM search_fts
        WHERE search_fts MATCH ${fts ? `${fts} : (${toFts5(clauses)})` : toFts5(clauses)}`
      ).execute(db);
      const ids = parseIntList(rows[0]?.ids);
      if (ids.length < minDocs) continue;
      await sql`INSERT INTO search_postings (key, bits) VALUES (${keyOf(token, field as Field)}, ${bytea(bitsOf(ids, capacity))})`.execute(
        db,
      );
      kept++;
    }
  }
  return kept;
}

/** PostgreSQL: the keys of a field's vectors that may reach `minDocs` items (the tokens exactly, prefixes by a bound). */
async function pgCandidates(db: DB, table: string, column: string, minDocs: number): Promise<string[]> {
  const { rows } = await sql<{
    key: string;
  }>`WITH stat AS (SELECT word, ndoc FROM ts_stat(${`SELECT ${column} FROM ${table}`}))
      SELECT word AS key FROM stat WHERE ndoc >= ${minDocs}
      UNION ALL
      SELECT left(word, n) || '*' AS key FROM stat, generate_series(${MIN_PREFIX}, char_length(word)) AS n
      GROUP BY left(word, n) HAVING sum(ndoc) >= ${minDocs}`.execute(db);
  return rows.map((r) => r.key);
}

/**
 * SQLite: the same from FTS5's vocabulary (migration 0025's fts5vocab tables: how many rows hold each token, in
 * the whole row or in one column).
 */
async function sqliteCandidates(db: DB, column: "title" | "tags" | null, minDocs: number): Promise<string[]> {
  const { rows } = await (column
    ? sql<{ term: string; doc: number }>`SELECT term, doc FROM search_fts_cols WHERE col = ${column}`
    : sql<{ term: string; doc: number }>`SELECT term, doc FROM search_fts_rows`
  ).execute(db);
  const docs = new Map<string, number>();
  for (const { term, doc } of rows) {
    if (doc >= minDocs) docs.set(term, doc);
    const chars = [...term];
    for (let n = MIN_PREFIX; n <= chars.length; n++) {
      const prefix = `${chars.slice(0, n).join("")}*`;
      docs.set(prefix, (docs.get(prefix) ?? 0) + doc);
    }
  }
  return [...docs].filter(([, n]) => n >= minDocs).map(([key]) => key);
}

/**
 * Brings the stored bitsets in step with a change of the index: for each item, the tokens it had (none when it
 * was not indexed) and has now. Only the keys an item gained or lost are read; the rows it changes stay locked,
 * taken in key order, until the transaction ends.
 */
export async function updatePostings(db: DB, changes: { id: number; before: ItemTokens | null; after: ItemTokens }[]): Promise<void> {
  const keyed = changes.map((c) => {
    const after = itemKeys(c.after);
    const before = c.before ? itemKeys(c.before) : new Set<string>();
    const moved = new Set([...after].filter((k) => !before.has(k)));
    for (const k of before) if (!after.has(k)) moved.add(k);
    return { id: c.id, after, moved };
  });
  const keys = [...new Set(keyed.flatMap((c) => [...c.moved]))];
  if (!keys.length) return;
  const rows = await readPostings(db, keys, true);
  for (const row of rows) {
    let bits = row.bits;
    let changed = false;
    for (const c of keyed) {
      if (!c.moved.has(row.key)) continue;
      const on = c.after.has(row.key);
      if (hasBit(bits, c.id) !== on) {
        bits = withBit(bits, c.id, on);
        changed = true;
      }
    }
    if (changed) await sql`UPDATE search_postings SET bits = ${bytea(bits)} WHERE key = ${row.key}`.execute(db);
  }
}
