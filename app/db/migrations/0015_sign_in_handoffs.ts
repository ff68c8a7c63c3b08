import type { Kysely } from "kysely";

/**
 * The editor's sign-in hand-off (app/market/users/hand-off.server.ts): one row per token issued, redeemed at most
 * once (used_at) before it expires.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sign_in_handoffs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("license_id", "integer", (c) => c.notNull().references("licenses.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_handoffs_expires_idx").on("sign_in_handoffs").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sign_in_handoffs").ifExists().execute();
}
