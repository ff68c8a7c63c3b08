import type { Kysely } from "kysely";

/**
 * The sandbox gateway's webhook outbox. A real gateway keeps its notifications until the merchant answers 2xx
 * and retries with backoff; so does the sandbox: a notification is written in the same transaction as the
 * payment's change, and survives a crash of the process that made it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sandbox_webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("msg_id", "text", (c) => c.notNull())
    .addColumn("payment_id", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sandbox_webhooks_due_idx").on("sandbox_webhooks").columns(["delivered_at", "next_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sandbox_webhooks").ifExists().execute();
}
