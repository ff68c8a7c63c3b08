import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * The search index, one implementation per engine over the same pre-analysed tokens
 * (app/market/search/analyze.ts):
 * - SQLite: an FTS5 table (title, tags, body), rowid = contents.id, with prefix indexes for prefix queries.
 * - PostgreSQL: a weighted tsvector per item (title A, tags B, body C) with a GIN index.
 * `search_terms` holds the Latin words of the catalog, for correcting typos in queries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`CREATE TABLE search_documents (content_id integer PRIMARY KEY REFERENCES contents(id) ON DELETE CASCADE, document tsvector NOT NULL)`.execute(
      db,
    );
    await sql`CREATE INDEX search_documents_gin ON search_documents USING GIN (document)`.execute(db);
  } else {
    await sql`CREATE VIRTUAL TABLE search_fts USING fts5(title, tags, body, tokenize = 'unicode61 remove_diacritics 0', prefix = '2 3 4')`.execute(
      db,
    );
  }
  await db.schema
    .createTable("search_terms")
    .addColumn("term", "text", (c) => c.primaryKey())
    .addColumn("length", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("search_terms_length_idx").on("search_terms").columns(["length", "term"]).execute();
  // Text matches are joined to the catalog by id; this narrow covering index answers every search filter,
  // the per-type counts and the ordering without reading the wide rows.
  await db.schema
    .createIndex("contents_search_cover")
    .on("contents")
    .columns([
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
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("contents_search_cover").ifExists().execute();
  await db.schema.dropTable("search_terms").ifExists().execute();
  if (isPostgres(db)) await db.schema.dropTable("search_documents").ifExists().execute();
  else await sql`DROP TABLE IF EXISTS search_fts`.execute(db);
}
