import type { Kysely } from "kysely";

/**
 * The mail outbox becomes a queue (app/market/mail/): each message keeps its HTML body, headers, kind and language,
 * and its delivery state: queued, sending (claimed by a worker until claimed_until), sent or failed, with the attempts
 * made and when the next one is due.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const add = (name: string, type: "text" | "integer", build?: (c: any) => any) =>
    db.schema
      .alterTable("mail_outbox")
      .addColumn(name, type, build ?? ((c) => c))
      .execute();
  await add("body_html", "text");
  await add("headers", "text");
  await add("kind", "text");
  await add("language", "text");
  await add("status", "text", (c) => c.notNull().defaultTo("queued"));
  await add("attempts", "integer", (c) => c.notNull().defaultTo(0));
  await add("next_attempt_at", "text");
  await add("claimed_until", "text");
  await add("sent_at", "text");
  await add("last_error", "text");
  await db.schema.createIndex("mail_outbox_due_idx").on("mail_outbox").columns(["status", "next_attempt_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("mail_outbox_due_idx").ifExists().execute();
  for (const c of [
    "last_error",
    "sent_at",
    "claimed_until",
    "next_attempt_at",
    "attempts",
    "status",
    "language",
    "kind",
    "headers",
    "body_html",
  ])
    await db.schema.alterTable("mail_outbox").dropColumn(c).execute();
}
