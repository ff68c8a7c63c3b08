import type { Kysely } from "kysely";

/**
 * Rate limits shared by every server process (app/market/rate-limits.server.ts): one row per (bucket, key) with
 * its count, the instant it is blocked until (back-off) and the instant it is forgotten. Keys are stored hashed.
 * Instants are epoch milliseconds (bigint) so the limiter compares and updates them in one statement on both engines.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_limits")
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("blocked_until", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limits_pk", ["bucket", "key"])
    .execute();
  await db.schema.createIndex("rate_limits_expires_idx").on("rate_limits").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limits").ifExists().execute();
}
