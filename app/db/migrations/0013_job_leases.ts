import type { Kysely } from "kysely";

/**
 * Scheduled jobs that must run once across processes take a lease (app/market/jobs.server.ts): one row per job,
 * held by one process until it expires. Plus the indexes the housekeeping purge (app/market/housekeeping.server.ts)
 * reads expired rows by, so each of its batches reads only what it deletes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("download_tokens_expires_idx").on("download_tokens").column("expires_at").execute();
  await db.schema.createIndex("sessions_expires_idx").on("sessions").column("expires_at").execute();
  await db.schema.createIndex("carts_created_idx").on("carts").column("created_at").execute();
  await db.schema.createIndex("cart_passes_created_idx").on("cart_passes").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ["cart_passes_created_idx", "carts_created_idx", "sessions_expires_idx", "download_tokens_expires_idx"])
    await db.schema.dropIndex(index).ifExists().execute();
  await db.schema.dropTable("job_leases").ifExists().execute();
}
