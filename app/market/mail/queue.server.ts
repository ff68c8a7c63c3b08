import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema";
import type { ComposedMail } from "./compose.server";

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Queues a composed message (table mail_outbox) with the change that causes it, in the caller's transaction: the
 * message exists exactly when the change does. The mail worker (worker.server.ts) delivers it after commit.
 */
export async function queueMail(db: Executor, mail: ComposedMail, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto("mail_outbox")
    .values({
      to_address: mail.to,
      subject: mail.subject,
      body_text: mail.text,
      body_html: mail.html,
      headers: Object.keys(mail.headers).length ? JSON.stringify(mail.headers) : null,
      kind: mail.kind,
      language: mail.language,
      status: "queued",
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
    })
    .execute();
}
