import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/** The catalog columns the search filters and orders read (app/market/search/facets.server.ts). */
export const FACET_COLUMNS = [
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
] as const;

/**
 * A catalog version for the search's in-memory columns: triggers bump it on every insert, delete and change
 * of a column the search filters or orders by, whatever code makes the change, so every server sees that its
 * copy is stale at its next search. (The covering index contents_search_cover now serves the loading of
 * those columns.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("search_state")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
  await db.insertInto("search_state").values({ id: 1, version: 1 }).execute();
  const columns = sql.raw(FACET_COLUMNS.join(", "));
  if (isPostgres(db)) {
    await sql`CREATE FUNCTION search_state_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE search_state SET version = version + 1 WHERE id = 1; RETURN NULL; END $$`.execute(
      db,
    );
    await sql`CREATE TRIGGER contents_search_state AFTER INSERT OR DELETE OR UPDATE OF ${columns} ON contents FOR EACH STATEMENT EXECUTE FUNCTION search_state_bump()`.execute(
      db,
    );
  } else {
    const body = sql`BEGIN UPDATE search_state SET version = version + 1 WHERE id = 1; END`;
    await sql`CREATE TRIGGER contents_search_state_ins AFTER INSERT ON contents ${body}`.execute(db);
    await sql`CREATE TRIGGER contents_search_state_del AFTER DELETE ON contents ${body}`.execute(db);
    await sql`CREATE TRIGGER contents_search_state_upd AFTER UPDATE OF ${columns} ON contents ${body}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP TRIGGER IF EXISTS contents_search_state ON contents`.execute(db);
    await sql`DROP FUNCTION IF EXISTS search_state_bump()`.execute(db);
  } else {
    for (const t of ["ins", "del", "upd"]) await sql.raw(`DROP TRIGGER IF EXISTS contents_search_state_${t}`).execute(db);
  }
  await db.schema.dropTable("search_state").ifExists().execute();
}
