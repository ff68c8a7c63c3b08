import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * What the storefront publishes, as one version number: triggers bump `content_version` in the transaction of every
 * change to the catalog and to everything published beside it, whatever code makes the change, so every worker and
 * server sees within a second (app/market/content-version.server.ts) that the pages it cached are stale.
 *
 * The tables whose rows a store page shows. A change of `contents.sales_count` alone (one per paid order) bumps
 * nothing: no page shows it, and the page caches of a busy store would otherwise be dropped at every sale.
 */
export const PUBLISHED_TABLES = [
  "taxonomy",
  "package_items",
  "theme_items",
  "banners",
  "keywords",
  "pass_prices",
  "faqs",
  "notices",
  "events",
  "policies",
  "guide_steps",
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("content_version")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
  await db.insertInto("content_version").values({ id: 1, version: 1 }).execute();
  if (isPostgres(db)) {
    await sql`CREATE FUNCTION content_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE content_version SET version = version + 1 WHERE id = 1; RETURN NULL; END $$`.execute(
      db,
    );
    // One bump per statement (the seed inserts thousands of rows at a time), per row only for updates of contents.
    for (const table of PUBLISHED_TABLES)
      await sql`CREATE TRIGGER ${sql.raw(`${table}_content_version`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)} FOR EACH STATEMENT EXECUTE FUNCTION content_version_bump()`.execute(
        db,
      );
    await sql`CREATE TRIGGER contents_content_version AFTER INSERT OR DELETE ON contents FOR EACH STATEMENT EXECUTE FUNCTION content_version_bump()`.execute(
      db,
    );
    await sql`CREATE TRIGGER contents_content_version_upd AFTER UPDATE ON contents FOR EACH ROW WHEN (OLD.sales_count IS NOT DISTINCT FROM NEW.sales_count) EXECUTE FUNCTION content_version_bump()`.execute(
      db,
    );
  } else {
    const body = sql`BEGIN UPDATE content_version SET version = version + 1 WHERE id = 1; END`;
    for (const table of PUBLISHED_TABLES)
      for (const [suffix, event] of [
        ["ins", "INSERT"],
        ["upd", "UPDATE"],
        ["del", "DELETE"],
      ])
        await sql`CREATE TRIGGER ${sql.raw(`${table}_content_version_${suffix}`)} AFTER ${sql.raw(event)} ON ${sql.table(table)} ${body}`.execute(
          db,
        );
    await sql`CREATE TRIGGER contents_content_version_ins AFTER INSERT ON contents ${body}`.execute(db);
    await sql`CREATE TRIGGER contents_content_version_del AFTER DELETE ON contents ${body}`.execute(db);
    await sql`CREATE TRIGGER contents_content_version_upd AFTER UPDATE ON contents WHEN NEW.sales_count IS OLD.sales_count ${body}`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const tables = [...PUBLISHED_TABLES, "contents"];
  if (isPostgres(db)) {
    for (const table of tables) await sql.raw(`DROP TRIGGER IF EXISTS ${table}_content_version ON ${table}`).execute(db);
    await sql`DROP TRIGGER IF EXISTS contents_content_version_upd ON contents`.execute(db);
    await sql`DROP FUNCTION IF EXISTS content_version_bump()`.execute(db);
  } else {
    for (const table of tables)
      for (const suffix of ["ins", "upd", "del"]) await sql.raw(`DROP TRIGGER IF EXISTS ${table}_content_version_${suffix}`).execute(db);
  }
  await db.schema.dropTable("content_version").ifExists().execute();
}
