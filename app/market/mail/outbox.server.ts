/**
 * The test-mode outbox view: what the store queued and how its delivery went. Served only with the outbox transport
 * and only to an operator whose role reaches members' data (support, admin), since mails carry personal links
 * (quotes, orders, unsubscribe tokens); never by the client's address, which a proxy on the same machine makes
 * loopback for everyone (docs/security.md). Opening one mail is a line of the audit log.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { DB } from "../../db/db.server";
import { outboxDir } from "../../integrations/mail/transport.server";
import type { Operator } from "../operators/accounts.server";
import { type Actor, recordAudit } from "../operators/audit.server";
import { roleAllows } from "../operators/roles";
import { resolveLinks } from "./worker.server";

export function outboxVisible(env: { MAIL_TRANSPORT: string }, operator: Pick<Operator, "role"> | null): boolean {
  return env.MAIL_TRANSPORT === "outbox" && operator !== null && roleAllows(operator.role, "members");
}

export async function listOutbox(db: DB, limit = 50) {
  return db
    .selectFrom("mail_outbox")
    .select(["id", "to_address", "subject", "kind", "status", "attempts", "created_at", "sent_at", "last_error"])
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** One queued mail, its links resolved as delivered, for `viewer` (the view is logged as `mail.view`). */
export async function outboxMessage(db: DB, id: number, viewer: Actor, publicUrl: string, secret?: string) {
  const row = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  await recordAudit(db, viewer, { action: "mail.view", targetType: "mail", targetId: id, after: { to: row.to_address, kind: row.kind } });
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

/** The .eml the outbox transport wrote for a delivered mail, for `viewer` (logged as `mail.download`), or null. */
export async function outboxEml(db: DB, dataDir: string, id: number, viewer: Actor) {
  const body = await fs.readFile(path.join(outboxDir(dataDir), `${id}.eml`)).catch(() => null);
  if (!body) return null;
  await recordAudit(db, viewer, { action: "mail.download", targetType: "mail", targetId: id });
  return body;
}
