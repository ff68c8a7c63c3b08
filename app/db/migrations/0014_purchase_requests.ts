import type { Kysely } from "kysely";

/**
 * Purchase requests and direct purchases (app/market/requests/): a request keeps the hash of its quote link, the
 * requester's language, when it was paid and whether the representative deleted it from their list; the orders
 * that pay requests name them in `order_requests`, which settlement claims so a request is paid once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("purchase_requests").addColumn("quote_token_hash", "text").execute();
  await db.schema
    .alterTable("purchase_requests")
    .addColumn("language", "text", (c) => c.notNull().defaultTo("ko"))
    .execute();
  await db.schema.alterTable("purchase_requests").addColumn("paid_at", "text").execute();
  await db.schema.alterTable("purchase_requests").addColumn("deleted_at", "text").execute();
  await db.schema.createIndex("purchase_requests_quote_uq").unique().on("purchase_requests").column("quote_token_hash").execute();
  await db.schema.createIndex("purchase_requests_license_idx").on("purchase_requests").column("license_id").execute();
  await db.schema
    .createTable("order_requests")
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("request_id", "integer", (c) => c.notNull().references("purchase_requests.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("order_requests_pk", ["order_id", "request_id"])
    .execute();
  await db.schema.createIndex("order_requests_request_idx").on("order_requests").column("request_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("order_requests").ifExists().execute();
  await db.schema.dropIndex("purchase_requests_license_idx").ifExists().execute();
  await db.schema.dropIndex("purchase_requests_quote_uq").ifExists().execute();
  for (const c of ["deleted_at", "paid_at", "language", "quote_token_hash"])
    await db.schema.alterTable("purchase_requests").dropColumn(c).execute();
}
