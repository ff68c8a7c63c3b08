import { randomBytes } from "node:crypto";
import type { DB } from "../../db/db.server";
import { hashPassword, verifyPassword } from "./password.server";

export const SESSION_DAYS = 14;
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;

/** Failed sign-ins per e-mail and per address, in memory: 5 in 15 minutes, then a wait. */
const failures = new Map<string, number[]>();

function recentFailures(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((t) => now - t < FAILURE_WINDOW_MS);
  if (list.length) failures.set(key, list);
  else failures.delete(key);
  return list;
}

/** A session row for a signed-in member, valid for SESSION_DAYS. */
async function openSession(db: DB, id: string, userId: number, now: Date): Promise<void> {
  const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString();
  await db.insertInto("sessions").values({ id, user_id: userId, created_at: now.toISOString(), expires_at: expires }).execute();
}

export type SignInResult =
  | { ok: true; sessionId: string; user: { id: number; nickname: string; userType: number } }
  | { ok: false; code: "INVALID_CREDENTIALS" | "TOO_MANY_ATTEMPTS" };

/**
 * Signs a member in: checks the password, opens a session, and merges the anonymous cart (ngt) into the
 * member's cart (items already there are not added twice) — all in one transaction.
 */
export async function signIn(
  db: DB,
  input: { email: string; password: string; ip: string; ngt?: string | null },
  now = new Date(),
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const keys = [`e:${email}`, `i:${input.ip}`];
  if (keys.some((k) => recentFailures(k, now.getTime()).length >= MAX_FAILURES)) return { ok: false, code: "TOO_MANY_ATTEMPTS" };
  const user = await db
    .selectFrom("users")
    .select(["id", "nickname", "user_type", "password_hash"])
    .where("email", "=", email)
    .executeTakeFirst();
  // Hash even for unknown addresses, so timing does not tell which e-mails have accounts.
  const valid = await verifyPassword(input.password, user?.password_hash ?? "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA");
  if (!user || !valid) {
    for (const k of keys) failures.set(k, [...recentFailures(k, now.getTime()), now.getTime()]);
    return { ok: false, code: "INVALID_CREDENTIALS" };
  }
  for (const k of keys) failures.delete(k);
  const sessionId = randomBytes(24).toString("base64url");
  await db.transaction().execute(async (trx) => {
    await openSession(trx, sessionId, user.id, now);
    if (input.ngt) {
      const owned = trx.selectFrom("carts").select("content_id").where("user_id", "=", user.id);
      await trx
        .updateTable("carts")
        .set({ user_id: user.id, ngt: null })
        .where("ngt", "=", input.ngt)
        .where("user_id", "is", null)
        .where("content_id", "not in", owned)
        .execute();
      await trx.deleteFrom("carts").where("ngt", "=", input.ngt).where("user_id", "is", null).execute();
    }
    await trx.deleteFrom("sessions").where("user_id", "=", user.id).where("expires_at", "<", now.toISOString()).execute();
  });
  return { ok: true, sessionId, user: { id: user.id, nickname: user.nickname, userType: user.user_type } };
}

export async function signOut(db: DB, sessionId: string | null): Promise<void> {
  if (sessionId) await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

export type JoinResult =
  | { ok: true; sessionId: string; user: { id: number; nickname: string; userType: number } }
  | { ok: false; code: "EMAIL_TAKEN" };

/** Creates an individual member and signs them in (one transaction); the anonymous cart moves along. */
export async function joinMarket(
  db: DB,
  input: { email: string; password: string; nickname: string; marketEmailAgree: boolean; language: string; ngt?: string | null },
  now = new Date(),
): Promise<JoinResult> {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const sessionId = randomBytes(24).toString("base64url");
  return db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
    if (taken) return { ok: false as const, code: "EMAIL_TAKEN" as const };
    const user = await trx
      .insertInto("users")
      .values({
        email,
        password_hash: passwordHash,
        nickname: input.nickname.trim(),
        user_type: 1,
        organization: null,
        market_email_agree: input.marketEmailAgree ? 1 : 0,
        youtube_channel_id: null,
        youtube_channel_updated_at: null,
        language: input.language,
        created_at: now.toISOString(),
      })
      .returning(["id", "nickname", "user_type"])
      .executeTakeFirstOrThrow();
    await openSession(trx, sessionId, user.id, now);
    if (input.ngt)
      await trx
        .updateTable("carts")
        .set({ user_id: user.id, ngt: null })
        .where("ngt", "=", input.ngt)
        .where("user_id", "is", null)
        .execute();
    return { ok: true as const, sessionId, user: { id: user.id, nickname: user.nickname, userType: user.user_type } };
  });
}
