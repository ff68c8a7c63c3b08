import { type Kysely, sql } from "kysely";

/**
 * Downloads: what a download grants (until when, under which request), one pass deduction per pass and content
 * (a partial unique index: repeated or racing requests cannot deduct twice), and short-lived tokens for signed
 * file links and for the one-time hand-over to the editor.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("downloads").addColumn("expires_at", "text").execute();
  await db.schema.alterTable("downloads").addColumn("request_id", "text").execute();
  await sql`CREATE UNIQUE INDEX downloads_pass_content_uq ON downloads (pass_id, content_id) WHERE pass_id IS NOT NULL`.execute(db);
  await db.schema
    .createTable("download_tokens")
    .addColumn("id", "text", (c) => c.primaryKey()) // sha256 of the token; the token itself is never stored
    .addColumn("kind", "text", (c) => c.notNull()) // file | bridge
    .addColumn("license_id", "integer", (c) => c.notNull().references("licenses.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("content_id", "integer", (c) => c.references("contents.id"))
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("redeemed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("download_tokens").ifExists().execute();
  await sql`DROP INDEX IF EXISTS downloads_pass_content_uq`.execute(db);
}
