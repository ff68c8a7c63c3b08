import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * PostgreSQL only. The frequent index keys (tokens, and token prefixes for prefix queries) held as bitsets
 * over content ids: a word that matches a third of the catalog is read as one bitset of a few hundred
 * kilobytes, where the GIN index must visit the heap row of every match to learn its id
 * (app/market/search/postings.server.ts). Compressed with lz4 where the server has it: the bitsets of 1% to 3%
 * of the items shrink to about a third (375 -> 135 MB at 1,000,000 items) and decompress in a few microseconds.
 * The index tables are emptied so the server rebuilds the index, and the bitsets with it, at start.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE TABLE search_postings (key text PRIMARY KEY, bits bytea NOT NULL)`.execute(db);
  // A server built without lz4 keeps its default compression (pglz).
  await sql`DO $$ BEGIN
    EXECUTE 'ALTER TABLE search_postings ALTER COLUMN bits SET COMPRESSION lz4';
  EXCEPTION WHEN feature_not_supported THEN NULL;
  END $$`.execute(db);
  await sql`DELETE FROM search_fields`.execute(db);
  await sql`DELETE FROM search_documents`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`DROP TABLE IF EXISTS search_postings`.execute(db);
}
