/**
 * The test-mode outbox view: what the store queued and how its delivery went. Served only with the outbox transport
 * and to the machine the store runs on (docs/decisions.md), since mails carry personal links.
 */
import type { DB } from "../../db/db.server";
import { resolveLinks } from "./worker.server";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

export function outboxVisible(env: { MAIL_TRANSPORT: string }, clientIp: string): boolean {
  return env.MAIL_TRANSPORT === "outbox" && LOOPBACK.has(clientIp);
}

export async function listOutbox(db: DB, limit = 50) {
  return db
    .selectFrom("mail_outbox")
    .select(["id", "to_address", "subject", "kind", "status", "attempts", "created_at", "sent_at", "last_error"])
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function outboxMessage(db: DB, id: number, publicUrl: string, secret?: string) {
  const row = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    kind: row.kind,
    status: row.status,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
    text: resolveLinks(row.body_text, publicUrl, false, secret),
  };
}
