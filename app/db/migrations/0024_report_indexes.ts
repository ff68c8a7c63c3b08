import type { Kysely } from "kysely";

/**
 * The console's reports (app/market/reports.server.ts) read a range of days: orders by when they were paid, order
 * lines by when they were refunded, downloads by when they were granted. These indexes let each read only its range.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_ptime_idx").on("orders").column("ptime").execute();
  await db.schema.createIndex("order_items_cancelled_idx").on("order_items").column("cancelled_at").execute();
  await db.schema.createIndex("downloads_created_idx").on("downloads").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ["downloads_created_idx", "order_items_cancelled_idx", "orders_ptime_idx"])
    await db.schema.dropIndex(index).ifExists().execute();
}
