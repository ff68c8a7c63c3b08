import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * PostgreSQL only. A full-text match reads the heap row of every matching item to learn its id, and a broad
 * word matches a third of the catalog: with the vector inline (about 1 KB) that is a read of nearly every
 * page of the table. PostgreSQL moves values out of line only for rows over 2 kB (TOAST_TUPLE_THRESHOLD), so
 * `toast_trigger`, a 2 kB zero pad, takes each row over it; TOAST then compresses the pad to a few bytes and,
 * with toast_tuple_target at its minimum and the vector's storage EXTERNAL, moves the vector out of line.
 * The heap keeps about 90 bytes per item, the GIN index is unchanged, and a match without a recheck never
 * reads the vector. The title and tag vectors, which Best Match reads by key, live in `search_fields`.
 * The tables start empty: the server rebuilds the index at start (ensureSearchIndex).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`DROP TABLE search_documents`.execute(db);
  await sql`CREATE TABLE search_documents (
    content_id integer PRIMARY KEY REFERENCES contents(id) ON DELETE CASCADE,
    toast_trigger bytea NOT NULL DEFAULT decode(repeat('00', 2048), 'hex'),
    document tsvector NOT NULL
  ) WITH (toast_tuple_target = 128)`.execute(db);
  await sql`ALTER TABLE search_documents ALTER COLUMN document SET STORAGE EXTERNAL`.execute(db);
  await sql`CREATE INDEX search_documents_gin ON search_documents USING GIN (document)`.execute(db);
  await sql`CREATE TABLE search_fields (
    content_id integer PRIMARY KEY REFERENCES contents(id) ON DELETE CASCADE,
    title tsvector NOT NULL,
    tags tsvector NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX search_fields_title_gin ON search_fields USING GIN (title)`.execute(db);
  await sql`CREATE INDEX search_fields_tags_gin ON search_fields USING GIN (tags)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`DROP TABLE IF EXISTS search_fields`.execute(db);
  await sql`DROP TABLE IF EXISTS search_documents`.execute(db);
  await sql`CREATE TABLE search_documents (content_id integer PRIMARY KEY REFERENCES contents(id) ON DELETE CASCADE, document tsvector NOT NULL)`.execute(
    db,
  );
  await sql`CREATE INDEX search_documents_gin ON search_documents USING GIN (document)`.execute(db);
}
