import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * PostgreSQL only. The frequent index keys (tokens, and token prefixes for prefix queries) held as bitsets
 * over content ids: a word that matches a third of the catalog is read as one bitset of a few hundred
 * kilobytes, where the GIN index must visit the heap row of every match to learn its id
 * (app/market/search/postings.server.ts). Compressed with lz4 where the server has it: the bitsets of 1% to 3%
 * of the items shrink to about a third (375 -> 89 MB at 1,000,000 items) and decompress in a few microseconds.
 * The index tables are emptied so the server rebuilds the index, and the bitsets with it, at start.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // Emptied first (the start-up rebuild fills them again), so the triggers below do not run for every row.
  await sql`DELETE FROM search_fields`.execute(db);
  await sql`DELETE FROM search_documents`.execute(db);
  await sql`CREATE TABLE search_postings (key text PRIMARY KEY, bits bytea NOT NULL)`.execute(db);
  // A server built without lz4, or older than 14, keeps its default compression (pglz).
  await sql`DO $$ BEGIN
    IF current_setting('server_version_num')::int >= 140000 THEN
      EXECUTE 'ALTER TABLE search_postings ALTER COLUMN bits SET COMPRESSION lz4';
    END IF;
  EXCEPTION WHEN feature_not_supported THEN NULL;
  END $$`.execute(db);
  // An item deleted from the catalog leaves the index by cascade, without reindexContents: these triggers
  // clear its bits, from the keys of the tokens it had (as postingKeys makes them: each token, and each prefix
  // of three characters or more). A row deleted while its item is still in the catalog is being reindexed,
  // and reindexContents keeps the bits.
  await sql`CREATE FUNCTION search_postings_forget(item integer, tokens text[], mark text) RETURNS void LANGUAGE sql AS $$
    UPDATE search_postings SET bits = set_bit(bits, item, 0)
    WHERE key IN (
      SELECT mark || t FROM unnest(tokens) AS t
      UNION SELECT mark || left(t, n) || '*' FROM unnest(tokens) AS t, generate_series(3, char_length(t)) AS n
    ) AND length(bits) * 8 > item AND get_bit(bits, item) = 1
  $$`.execute(db);
  await sql`CREATE FUNCTION search_documents_forget() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM contents WHERE id = OLD.content_id) THEN
      PERFORM search_postings_forget(OLD.content_id, tsvector_to_array(OLD.document), '');
    END IF;
    RETURN NULL;
  END $$`.execute(db);
  await sql`CREATE FUNCTION search_fields_forget() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM contents WHERE id = OLD.content_id) THEN
      PERFORM search_postings_forget(OLD.content_id, tsvector_to_array(OLD.title), 't:');
      PERFORM search_postings_forget(OLD.content_id, tsvector_to_array(OLD.tags), 'g:');
    END IF;
    RETURN NULL;
  END $$`.execute(db);
  await sql`CREATE TRIGGER search_documents_forget AFTER DELETE ON search_documents FOR EACH ROW EXECUTE FUNCTION search_documents_forget()`.execute(
    db,
  );
  await sql`CREATE TRIGGER search_fields_forget AFTER DELETE ON search_fields FOR EACH ROW EXECUTE FUNCTION search_fields_forget()`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`DROP TRIGGER IF EXISTS search_fields_forget ON search_fields`.execute(db);
  await sql`DROP TRIGGER IF EXISTS search_documents_forget ON search_documents`.execute(db);
  await sql`DROP FUNCTION IF EXISTS search_fields_forget()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS search_documents_forget()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS search_postings_forget(integer, text[], text)`.execute(db);
  await sql`DROP TABLE IF EXISTS search_postings`.execute(db);
}
