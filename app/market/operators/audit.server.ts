import { sql } from "kysely";
import { AUDIT_GENESIS, auditRowHash } from "../../db/audit-chain";
import type { DB } from "../../db/db.server";
import { isPostgres } from "../../db/dialect";

/** Who acts: the signed-in operator and the address the request came from. */
export interface Actor {
  id: number;
  email: string;
  ip?: string | null;
}

/** Who an audit line names: an operator, or (a failed sign-in) the e-mail typed, with no operator behind it. */
export type AuditActor = Omit<Actor, "id"> & { id: number | null };

export interface AuditEntry {
  action: string; // a dotted name, e.g. "inquiry.answer", "operator.create", "order.refund"
  targetType: string; // e.g. "inquiry", "content", "order", "operator", "service_mode"
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/** The PostgreSQL advisory lock that puts writers of the chain in a line (any constant: "audit" in ASCII). */
const CHAIN_LOCK = 0x6175646974;

/**
 * Writes one line of the audit log. Call it with the transaction that makes the change, so the log holds exactly
 * the actions that happened (every operator action in the console goes through here); without one it opens its own.
 *
 * The line is chained to the one before it (app/db/audit-chain.ts): the last line is read and the new one written
 * while no other writer can append (SQLite: the transaction's write lock, taken at BEGIN IMMEDIATE; PostgreSQL: a
 * transaction-scoped advisory lock), so the chain never forks; the unique `seq` refuses a fork should that fail.
 */
export async function recordAudit(db: DB, actor: AuditActor, entry: AuditEntry, now = new Date()): Promise<void> {
  const append = async (trx: DB) => {
    if (isPostgres(trx)) await sql`SELECT pg_advisory_xact_lock(${sql.lit(CHAIN_LOCK)})`.execute(trx);
    const last = await trx.selectFrom("audit_log").select(["seq", "hash"]).orderBy("seq", "desc").limit(1).executeTakeFirst();
    const row = {
      seq: Number(last?.seq ?? 0) + 1,
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
    };
    const prev = last?.hash ?? AUDIT_GENESIS;
    await trx
      .insertInto("audit_log")
      .values({ ...row, prev_hash: prev, hash: auditRowHash(prev, row) })
      .execute();
  };
  if (db.isTransaction) await append(db);
  else await db.transaction().execute(append);
}

/** What the check of the chain found: intact, or the first row that breaks it. */
export type TrailCheck =
  | { ok: true; rows: number; lastHash: string | null }
  | { ok: false; problem: "changed"; seq: number } // row seq's content (or its hash) is not what was written
  | { ok: false; problem: "missing"; seq: number } // rows before row seq are gone
  | { ok: false; problem: "unchained"; count: number }; // rows without their place in the chain

const CHECK_BATCH = 2000;

/**
 * Walks the whole chain in order, recomputing each row's hash: the first row whose content no longer gives its hash
 * (or whose successor's link names another hash) was changed; a gap in `seq` means rows were removed. Removing the
 * newest rows leaves a shorter, intact chain: the answer's row count and last hash are what to compare with a copy
 * noted earlier.
 */
export async function checkAuditTrail(db: DB): Promise<TrailCheck> {
  let prev = AUDIT_GENESIS;
  let expected = 1;
  for (;;) {
    const batch = await db.selectFrom("audit_log").selectAll().where("seq", ">=", expected).orderBy("seq").limit(CHECK_BATCH).execute();
    for (const r of batch) {
      const seq = Number(r.seq);
      const row = { ...r, seq, operator_id: r.operator_id == null ? null : Number(r.operator_id) };
      if (auditRowHash(r.prev_hash, row) !== r.hash) return { ok: false, problem: "changed", seq };
      if (seq !== expected) return { ok: false, problem: "missing", seq };
      if (r.prev_hash !== prev) return { ok: false, problem: "changed", seq: seq - 1 };
      prev = r.hash;
      expected += 1;
    }
    if (batch.length < CHECK_BATCH) break;
  }
  const outside = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where((eb) => eb.or([eb("seq", "is", null), eb("hash", "is", null), eb("prev_hash", "is", null)]))
    .executeTakeFirstOrThrow();
  if (Number(outside.n) > 0) return { ok: false, problem: "unchained", count: Number(outside.n) };
  return { ok: true, rows: expected - 1, lastHash: expected > 1 ? prev : null };
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
  seq: number;
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
      .orderBy("seq", "desc")
      .offset((f.page - 1) * AUDIT_PAGE_SIZE)
      .limit(AUDIT_PAGE_SIZE)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      seq: Number(r.seq),
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
