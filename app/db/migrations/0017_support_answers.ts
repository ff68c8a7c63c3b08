import type { Kysely } from "kysely";

/**
 * Answers to 1:1 inquiries, written later by the operator console (answerInquiry in app/market/support.server.ts),
 * and the member's own edits: when the answer was written (`answered_at`), when the member last changed the
 * question (`updated_at`), the language the inquiry was filed in (`language`, for the answer's mail), and the
 * indexes My page (a member's inquiries, newest first) and the console (accepted ones, oldest first) read.
 * Touches only support_tickets, so it does not depend on 0014 or 0015.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("support_tickets").addColumn("answered_at", "text").execute();
  await db.schema.alterTable("support_tickets").addColumn("updated_at", "text").execute();
  await db.schema.alterTable("support_tickets").addColumn("language", "text").execute();
  await db.schema.createIndex("support_tickets_user_idx").on("support_tickets").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("support_tickets_status_idx").on("support_tickets").columns(["status", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("support_tickets_status_idx").ifExists().execute();
  await db.schema.dropIndex("support_tickets_user_idx").ifExists().execute();
  await db.schema.alterTable("support_tickets").dropColumn("language").execute();
  await db.schema.alterTable("support_tickets").dropColumn("updated_at").execute();
  await db.schema.alterTable("support_tickets").dropColumn("answered_at").execute();
}
