import { createHash, randomBytes } from "node:crypto";
import type { DB } from "../../db/db.server";
import { MarketError } from "../errors";
import { backoff, forget, hit, OPERATOR_SIGN_IN_BACKOFF, RULES, refund, type Verdict } from "../rate-limits.server";
import { hashPassword, verifyPassword } from "../users/password.server";
import { type Actor, recordAudit } from "./audit.server";
import { isOperatorRole, type OperatorRole, passwordProblem } from "./roles";

/** A console session ends after 30 idle minutes, and 12 hours after sign-in whatever happens. */
export const OPERATOR_IDLE_MS = 30 * 60_000;
export const OPERATOR_SESSION_MS = 12 * 3_600_000;
/** last_seen_at is written at most once a minute (a page view is not a write). */
const TOUCH_MS = 60_000;

export interface Operator {
  id: number;
  email: string;
  name: string;
  role: OperatorRole;
}

const tokenId = (token: string) => createHash("sha256").update(token).digest("base64url");
const NO_OPERATOR_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA";

export type OperatorInputProblem = "email" | "name" | "role" | "length" | "classes" | "email_in_password" | "taken";

/** Creates an operator (the command line, the seed and the console's operators page). */
export async function createOperator(
  db: DB,
  input: { email: string; name: string; password: string; role: string },
  actor: Actor | null,
  now = new Date(),
): Promise<{ ok: true; id: number } | { ok: false; problem: OperatorInputProblem }> {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) return { ok: false, problem: "email" };
  if (!name || name.length > 60) return { ok: false, problem: "name" };
  if (!isOperatorRole(input.role)) return { ok: false, problem: "role" };
  const weak = passwordProblem(input.password, email);
  if (weak) return { ok: false, problem: weak as OperatorInputProblem };
  const hash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom("operators").select("id").where("email", "=", email).executeTakeFirst();
    if (taken) return { ok: false as const, problem: "taken" as const };
    const row = await trx
      .insertInto("operators")
      .values({ email, name, password_hash: hash, role: input.role, active: 1, created_at: now.toISOString(), last_sign_in_at: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (actor)
      await recordAudit(
        trx,
        actor,
        { action: "operator.create", targetType: "operator", targetId: row.id, after: { email, name, role: input.role } },
        now,
      );
    return { ok: true as const, id: row.id };
  });
}

export type OperatorSignIn =
  | { ok: true; token: string; operator: Operator }
  | { ok: false; code: "INVALID_CREDENTIALS" }
  | { ok: false; code: "TOO_MANY_ATTEMPTS"; retryAfterMs: number };

/**
 * Signs an operator in: the address limit and the (operator, address) back-off are checked before the password;
 * an unknown e-mail costs the same scrypt; an inactive operator is refused like a wrong password.
 */
export async function operatorSignIn(
  db: DB,
  input: { email: string; password: string; ip: string },
  now = new Date(),
): Promise<OperatorSignIn> {
  const email = input.email.trim().toLowerCase();
  const pair = `${email}\n${input.ip}`;
  const tooMany = (v: Verdict) => ({
    ok: false as const,
    code: "TOO_MANY_ATTEMPTS" as const,
    retryAfterMs: v.allowed ? 0 : v.retryAfterMs,
  });
  const address = await hit(db, RULES.operatorSignInAddress.bucket, input.ip, RULES.operatorSignInAddress, now);
  if (!address.allowed) return tooMany(address);
  const paced = await backoff(db, OPERATOR_SIGN_IN_BACKOFF, pair, now);
  if (!paced.allowed) return tooMany(paced);
  const row = await db.selectFrom("operators").selectAll().where("email", "=", email).executeTakeFirst();
  const valid = await verifyPassword(input.password, row?.password_hash ?? NO_OPERATOR_HASH);
  if (!row || !valid || row.active !== 1 || !isOperatorRole(row.role)) {
    // A failed sign-in whose password was checked is a line of the audit log (the throttled ones above are not: they
    // never reach the password, and logging them would let anyone fill the log at the rate they can send requests).
    const why = !row ? "unknown_email" : !valid ? "wrong_password" : "inactive";
    await recordAudit(
      db,
      { id: row?.id ?? null, email, ip: input.ip },
      { action: "operator.sign_in_failed", targetType: "operator", targetId: row?.id ?? null, after: { reason: why } },
      now,
    );
    return { ok: false, code: "INVALID_CREDENTIALS" };
  }
  await refund(db, RULES.operatorSignInAddress.bucket, input.ip, now);
  await forget(db, OPERATOR_SIGN_IN_BACKOFF.bucket, pair);
  const token = randomBytes(32).toString("base64url");
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("operator_sessions")
      .values({
        id: tokenId(token),
        operator_id: row.id,
        created_at: at,
        last_seen_at: at,
        expires_at: new Date(now.getTime() + OPERATOR_SESSION_MS).toISOString(),
      })
      .execute();
    await trx.updateTable("operators").set({ last_sign_in_at: at }).where("id", "=", row.id).execute();
    await trx.deleteFrom("operator_sessions").where("operator_id", "=", row.id).where("expires_at", "<", at).execute();
    await recordAudit(
      trx,
      { id: row.id, email: row.email, ip: input.ip },
      { action: "operator.sign_in", targetType: "operator", targetId: row.id },
      now,
    );
  });
  return { ok: true, token, operator: { id: row.id, email: row.email, name: row.name, role: row.role } };
}

/** The operator of a console session, or null when it is unknown, idle too long, past its end or deactivated. */
export async function findOperator(db: DB, token: string | null | undefined, now = new Date()): Promise<Operator | null> {
  if (!token || token.length > 100) return null;
  const id = tokenId(token);
  const row = await db
    .selectFrom("operator_sessions")
    .innerJoin("operators", "operators.id", "operator_sessions.operator_id")
    .select([
      "operators.id",
      "operators.email",
      "operators.name",
      "operators.role",
      "operators.active",
      "operator_sessions.last_seen_at",
      "operator_sessions.expires_at",
    ])
    .where("operator_sessions.id", "=", id)
    .executeTakeFirst();
  if (row?.active !== 1 || !isOperatorRole(row.role)) return null;
  const t = now.getTime();
  if (Date.parse(row.expires_at) <= t || Date.parse(row.last_seen_at) + OPERATOR_IDLE_MS <= t) {
    await db.deleteFrom("operator_sessions").where("id", "=", id).execute();
    return null;
  }
  if (t - Date.parse(row.last_seen_at) >= TOUCH_MS)
    await db.updateTable("operator_sessions").set({ last_seen_at: now.toISOString() }).where("id", "=", id).execute();
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}

/** Ends a console session, with a line of the audit log naming its operator (none when there was no session). */
export async function operatorSignOut(db: DB, token: string | null | undefined, ip: string | null = null, now = new Date()): Promise<void> {
  if (!token || token.length > 100) return;
  const id = tokenId(token);
  await db.transaction().execute(async (trx) => {
    const session = await trx
      .selectFrom("operator_sessions")
      .innerJoin("operators", "operators.id", "operator_sessions.operator_id")
      .select(["operators.id", "operators.email"])
      .where("operator_sessions.id", "=", id)
      .executeTakeFirst();
    if (!session) return;
    await trx.deleteFrom("operator_sessions").where("id", "=", id).execute();
    await recordAudit(
      trx,
      { id: session.id, email: session.email, ip },
      { action: "operator.sign_out", targetType: "operator", targetId: session.id },
      now,
    );
  });
}

export interface OperatorRow extends Operator {
  active: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export async function listOperators(db: DB): Promise<OperatorRow[]> {
  const rows = await db.selectFrom("operators").selectAll().orderBy("id").execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    role: isOperatorRole(r.role) ? r.role : "support",
    active: r.active === 1,
    createdAt: r.created_at,
    lastSignInAt: r.last_sign_in_at,
  }));
}

/**
 * Changes an operator's role or whether it may sign in (deactivating ends its sessions). An operator cannot change
 * itself, so the last admin cannot lock the console by mistake.
 */
export async function updateOperator(
  db: DB,
  id: number,
  change: { role: OperatorRole; active: boolean },
  actor: Actor,
  now = new Date(),
): Promise<void> {
  if (id === actor.id) throw new MarketError("FORBIDDEN", 403, "operators cannot change their own role or access");
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("operators").select(["role", "active"]).where("id", "=", id).executeTakeFirst();
    if (!before) throw new MarketError("NOT_FOUND", 404, "no such operator");
    await trx
      .updateTable("operators")
      .set({ role: change.role, active: change.active ? 1 : 0 })
      .where("id", "=", id)
      .execute();
    if (!change.active) await trx.deleteFrom("operator_sessions").where("operator_id", "=", id).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: "operator.update",
        targetType: "operator",
        targetId: id,
        before: { role: before.role, active: before.active === 1 },
        after: { role: change.role, active: change.active },
      },
      now,
    );
  });
}
