import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * SQLite: the frequent index keys as bitsets over content ids, as PostgreSQL has had since 0011
 * (app/market/search/postings.server.ts), and FTS5's vocabulary as two tables (how many rows hold each token, in
 * the whole row and per column) that the rebuild reads. The bitsets are filled at the next start
 * (ensureSearchIndex rebuilds them when the index has rows and they have none); until then every match is
 * answered by FTS5, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`CREATE TABLE search_postings (key text PRIMARY KEY, bits blob NOT NULL)`.execute(db);
  await sql`CREATE VIRTUAL TABLE search_fts_rows USING fts5vocab(search_fts, 'row')`.execute(db);
  await sql`CREATE VIRTUAL TABLE search_fts_cols USING fts5vocab(search_fts, 'col')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`DROP TABLE IF EXISTS search_fts_cols`.execute(db);
  await sql`DROP TABLE IF EXISTS search_fts_rows`.execute(db);
  await sql`DROP TABLE IF EXISTS search_postings`.execute(db);
}
