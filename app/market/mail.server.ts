import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  now?: Date;
}

/**
 * Queues a message in the mail outbox (table mail_outbox) with the change that causes it, in the caller's
 * transaction: the message exists exactly when the change does. The outbox is what test mode shows and what the
 * mail transport delivers from.
 */
export async function queueMail(db: Executor, mail: OutgoingMail): Promise<void> {
  await db
    .insertInto("mail_outbox")
    .values({
      to_address: mail.to,
      subject: mail.subject,
      body_text: mail.text,
      created_at: (mail.now ?? new Date()).toISOString(),
    })
    .execute();
}
