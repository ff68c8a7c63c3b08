/**
 * The mail worker: delivers queued mail after the change that queued it has committed. Each message is claimed with
 * one conditional update (queued → sending, until claimed_until), so any number of workers on any number of servers
 * deliver it once; a failure puts it back with a back-off (30 s, 2, 8, 32 minutes, 2 hours ...) and after MAX_ATTEMPTS
 * it is failed for a person to look at. A worker that dies mid-send leaves a claim that expires and is retried:
 * delivery is at least once, with the same Message-ID, which receivers use to drop a repeat.
 */
import type { DB } from "../../db/db.server";
import type { MailTransport } from "../../integrations/mail/transport.server";
import { runExclusive } from "../jobs.server";
import { resolveOrderAccess } from "../orders/order-access.server";
import { PUBLIC_URL_MARK } from "./compose.server";

export const MAX_ATTEMPTS = 8;
const CLAIM_MS = 2 * 60_000;

/** The wait before attempt n+1 after n failed ones. */
export const retryDelayMs = (attempts: number) => Math.min(30_000 * 4 ** Math.max(0, attempts - 1), 6 * 3_600_000);

export interface DeliveryOptions {
  transport: MailTransport;
  publicUrl: string;
  from: string;
  /** The store's session secret: signs the key-only buyer's order links at delivery (orders/order-access.server.ts). */
  secret?: string;
  now?: Date;
  batch?: number;
}

const escapeHtml = (s: string) => s.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

/** A stored body with its links on the store's public address. */
export function resolveLinks(body: string, publicUrl: string, html = false, secret?: string): string {
  const base = publicUrl.replace(/\/+$/, "");
  return resolveOrderAccess(body.replaceAll(PUBLIC_URL_MARK, html ? escapeHtml(base) : base), secret);
}

export async function deliverDueMail(db: DB, options: DeliveryOptions): Promise<{ sent: number; failed: number }> {
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const due = await db
    .selectFrom("mail_outbox")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "queued"), eb("next_attempt_at", "<=", at)]),
        eb.and([eb("status", "=", "sending"), eb("claimed_until", "<=", at)]),
      ]),
    )
    .orderBy("id")
    .limit(options.batch ?? 50)
    .execute();
  let sent = 0;
  let failed = 0;
  const host = new URL(options.publicUrl).hostname || "localhost";
  for (const row of due) {
    const claim = await db
      .updateTable("mail_outbox")
      .set({ status: "sending", claimed_until: new Date(now.getTime() + CLAIM_MS).toISOString() })
      .where("id", "=", row.id)
      .where("status", "=", row.status)
      .where((eb) => (row.claimed_until === null ? eb("claimed_until", "is", null) : eb("claimed_until", "=", row.claimed_until)))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    try {
      await options.transport.send({
        id: row.id,
        from: options.from,
        to: row.to_address,
        subject: row.subject,
        text: resolveLinks(row.body_text, options.publicUrl, false, options.secret),
        html: row.body_html === null ? null : resolveLinks(row.body_html, options.publicUrl, true, options.secret),
        headers: row.headers ? resolveHeaders(JSON.parse(row.headers) as Record<string, string>, options.publicUrl) : {},
        messageId: `<mail-${row.id}@${host}>`,
      });
      await db
        .updateTable("mail_outbox")
        .set({ status: "sent", sent_at: new Date().toISOString(), attempts: row.attempts + 1, claimed_until: null, last_error: null })
        .where("id", "=", row.id)
        .execute();
      sent++;
    } catch (error) {
      const attempts = row.attempts + 1;
      const final = attempts >= MAX_ATTEMPTS;
      await db
        .updateTable("mail_outbox")
        .set({
          status: final ? "failed" : "queued",
          attempts,
          claimed_until: null,
          next_attempt_at: final ? null : new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
          last_error: String(error instanceof Error ? error.message : error).slice(0, 500),
        })
        .where("id", "=", row.id)
        .execute();
      failed++;
    }
  }
  return { sent, failed };
}

function resolveHeaders(headers: Record<string, string>, publicUrl: string) {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, resolveLinks(v, publicUrl)]));
}

/**
 * Runs the worker every `intervalMs` on this server; across servers one at a time (a lease), so a message is never
 * claimed twice at once. Answers a stop function.
 */
export function scheduleMailWorker(
  db: DB,
  options: Omit<DeliveryOptions, "now"> & { intervalMs: number; holder: string; log?: (line: Record<string, unknown>) => void },
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      const run = await runExclusive(db, "mail-worker", { holder: options.holder, leaseMs: CLAIM_MS }, () => deliverDueMail(db, options));
      if (run.ran && (run.result.sent || run.result.failed)) options.log?.({ level: "info", msg: "mail delivered", ...run.result });
    } catch (error) {
      options.log?.({ level: "warn", msg: "mail worker failed", error: String(error) });
    } finally {
      if (!stopped) timer = setTimeout(tick, options.intervalMs);
    }
  };
  timer = setTimeout(tick, Math.min(options.intervalMs, 500));
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
