import type { DB } from "../../db/db.server";

/** Who acts: the signed-in operator and the address the request came from. */
export interface Actor {
  id: number;
  email: string;
  ip?: string | null;
}

export interface AuditEntry {
  action: string; // a dotted name, e.g. "inquiry.answer", "operator.create", "order.refund"
  targetType: string; // e.g. "inquiry", "content", "order", "operator", "service_mode"
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/**
 * Writes one line of the audit log. Call it with the transaction that makes the change, so the log holds exactly
 * the actions that happened (every operator action in the console goes through here).
 */
export async function recordAudit(db: DB, actor: Actor, entry: AuditEntry, now = new Date()): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      operator_id: actor.id,
      operator_email: actor.email,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId == null ? null : String(entry.targetId),
      before_json: json(entry.before),
      after_json: json(entry.after),
      reason: entry.reason ?? null,
      ip: actor.ip ?? null,
      created_at: now.toISOString(),
    })
    .execute();
}

export interface AuditFilter {
  operator?: string; // e-mail, exact
  action?: string; // prefix, e.g. "order." or "order.refund"
  targetType?: string;
  targetId?: string;
  from?: string; // YYYY-MM-DD, Asia/Seoul day bounds are the caller's business: ISO instants here
  to?: string;
  page: number;
}

export const AUDIT_PAGE_SIZE = 30;

export interface AuditRow {
  id: number;
  operatorEmail: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before: string | null;
  after: string | null;
  reason: string | null;
  ip: string | null;
  createdAt: string;
}

/** A page of the audit log, newest first, with the total for paging. */
export async function auditPage(db: DB, f: AuditFilter): Promise<{ rows: AuditRow[]; total: number; page: number; pages: number }> {
  let q = db.selectFrom("audit_log");
  if (f.operator) q = q.where("operator_email", "=", f.operator.trim().toLowerCase());
  if (f.action) q = q.where("action", "like", `${f.action.replace(/[%_\\]/g, "")}%`);
  if (f.targetType) q = q.where("target_type", "=", f.targetType);
  if (f.targetId) q = q.where("target_id", "=", f.targetId);
  if (f.from) q = q.where("created_at", ">=", f.from);
  if (f.to) q = q.where("created_at", "<", f.to);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy("id", "desc")
      .offset((f.page - 1) * AUDIT_PAGE_SIZE)
      .limit(AUDIT_PAGE_SIZE)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      operatorEmail: r.operator_email,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      before: r.before_json,
      after: r.after_json,
      reason: r.reason,
      ip: r.ip,
      createdAt: r.created_at,
    })),
    total,
    page: f.page,
    pages: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)),
  };
}
