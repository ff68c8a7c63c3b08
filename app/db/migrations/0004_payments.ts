import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import { isPostgres } from "../dialect";

const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

/**
 * Payments: what the order records of its gateway payment, the refunds made, the webhook deliveries seen
 * (deduplicated by the gateway's event id), and the built-in sandbox gateway's own ledger (it plays the
 * outside payment service, so it keeps its state apart from the store's orders).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const s = db.schema;
  const id = isPostgres(db)
    ? (t: ReturnType<typeof s.createTable>) => t.addColumn("id", "serial", (c) => c.primaryKey())
    : (t: ReturnType<typeof s.createTable>) => t.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());

  for (const [column, type, build] of [
    ["order_name", "text", undefined],
    ["discount", "integer", zero],
    ["coupon_code", "text", undefined],
    ["paid_amount", "integer", zero],
    ["refund_deduction", "integer", zero],
    ["vbank_bank", "text", undefined],
    ["vbank_account", "text", undefined],
    ["vbank_holder", "text", undefined],
    ["failure_message", "text", undefined],
    ["pending_reason", "text", undefined],
    ["updated_at", "text", undefined],
  ] as const) {
    await s
      .alterTable("orders")
      .addColumn(column, type, build ?? ((c) => c))
      .execute();
  }
  await s.createIndex("orders_status_due_idx").on("orders").columns(["status", "vbank_due_at"]).execute();
  await s.createIndex("orders_gateway_payment_idx").on("orders").columns(["gateway", "gateway_payment_id"]).execute();

  for (const [column, type, build] of [
    ["item_type", "text", undefined],
    ["cancelled_at", "text", undefined],
    ["refund_amount", "integer", zero],
    ["discount", "integer", zero],
  ] as const) {
    await s
      .alterTable("order_items")
      .addColumn(column, type, build ?? ((c) => c))
      .execute();
  }

  await id(s.createTable("refunds"))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("request_id", "text", notNull)
    .addColumn("item_ids", "text", notNull)
    .addColumn("gross", "integer", notNull)
    .addColumn("deduction", "integer", notNull)
    .addColumn("amount", "integer", notNull)
    .addColumn("status", "text", notNull) // requested | succeeded | failed
    .addColumn("gateway_cancellation_id", "text")
    .addColumn("reason", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("refunds_request_uq").unique().on("refunds").column("request_id").execute();
  await s.createIndex("refunds_order_idx").on("refunds").column("order_id").execute();

  await id(s.createTable("payment_events"))
    .addColumn("gateway", "text", notNull)
    .addColumn("event_id", "text", notNull)
    .addColumn("type", "text", notNull)
    .addColumn("gateway_payment_id", "text")
    .addColumn("received_at", "text", notNull)
    .execute();
  await s.createIndex("payment_events_uq").unique().on("payment_events").columns(["gateway", "event_id"]).execute();

  await s
    .createTable("sandbox_payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("payment_id", "text", notNull)
    .addColumn("order_name", "text", notNull)
    .addColumn("amount", "integer", notNull)
    .addColumn("vat", "integer", notNull)
    .addColumn("currency", "text", notNull)
    .addColumn("method", "text", notNull)
    .addColumn("status", "text", notNull)
    .addColumn("paid", "integer", zero)
    .addColumn("cancelled", "integer", zero)
    .addColumn("buyer_email", "text", notNull)
    .addColumn("locale", "text", notNull)
    .addColumn("vbank_bank", "text")
    .addColumn("vbank_account", "text")
    .addColumn("vbank_due_at", "text")
    .addColumn("return_url", "text", notNull)
    .addColumn("cancel_url", "text", notNull)
    .addColumn("webhook_url", "text", notNull)
    .addColumn("failure_reason", "text")
    .addColumn("paid_at", "text")
    .addColumn("created_at", "text", notNull)
    .addColumn("updated_at", "text", notNull)
    .execute();
  await s.createIndex("sandbox_payments_payment_uq").unique().on("sandbox_payments").column("payment_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["sandbox_payments", "payment_events", "refunds"]) await db.schema.dropTable(table).ifExists().execute();
}
