import { randomBytes } from "node:crypto";
import type { DB } from "../../db/db.server";
import { joinAttemptMail, welcomeMail } from "../mail/messages.server";
import { queueMail } from "../mail/queue.server";
import {
  admitJoinMail,
  backoff,
  forget,
  hit,
  KNOWN_ADDRESS,
  peek,
  RULES,
  refund,
  remember,
  SIGN_IN_BACKOFF,
  type Verdict,
} from "../rate-limits.server";
import { hashPassword, verifyPassword } from "./password.server";

export const SESSION_DAYS = 14;

/** A session row for a signed-in member, valid for SESSION_DAYS. */
async function openSession(db: DB, id: string, userId: number, now: Date): Promise<void> {
  const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString();
  await db.insertInto("sessions").values({ id, user_id: userId, created_at: now.toISOString(), expires_at: expires }).execute();
}

export type SignInResult =
  | { ok: true; sessionId: string; user: { id: number; nickname: string; userType: number } }
  | { ok: false; code: "INVALID_CREDENTIALS" }
  | { ok: false; code: "TOO_MANY_ATTEMPTS"; retryAfterMs: number };

/** A hash verifyPassword accepts and no password matches: unknown addresses cost the same scrypt as known ones. */
const NO_ACCOUNT_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA";
const tooMany = (v: Verdict & { allowed: false }) => ({
  ok: false as const,
  code: "TOO_MANY_ATTEMPTS" as const,
  retryAfterMs: v.retryAfterMs,
});

/**
 * Checks the sign-in limits before the password (docs/security.md), so wrong passwords cannot lock the owner out:
 * - per address over all accounts (RULES.signInAddress), failures only;
 * - per (account, address), exponential back-off (SIGN_IN_BACKOFF): an attacker's address waits longer and
 *   longer, the owner's own address is not touched;
 * - per account over all addresses (RULES.signInAccount): past it, addresses the account has not signed in from
 *   are slowed to one attempt per 10 s (RULES.signInSlow), a short wait rather than a lock; known addresses pass.
 */
async function admitSignIn(db: DB, email: string, ip: string, now: Date): Promise<Verdict> {
  const pair = `${email}\n${ip}`;
  const address = await hit(db, RULES.signInAddress.bucket, ip, RULES.signInAddress, now);
  if (!address.allowed) return address;
  const known = (await peek(db, KNOWN_ADDRESS.bucket, pair, now)) > 0;
  if (!known && (await peek(db, RULES.signInAccount.bucket, email, now)) >= RULES.signInAccount.limit) {
    const slow = await hit(db, RULES.signInSlow.bucket, email, RULES.signInSlow, now);
    if (!slow.allowed) return slow;
  }
  return backoff(db, SIGN_IN_BACKOFF, pair, now);
}

/**
 * Signs a member in: checks the limits and the password, opens a session, and merges the anonymous cart (ngt) into
 * the member's cart (items already there are not added twice) — all in one transaction.
 */
export async function signIn(
  db: DB,
  input: { email: string; password: string; ip: string; ngt?: string | null },
  now = new Date(),
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const admitted = await admitSignIn(db, email, input.ip, now);
  if (!admitted.allowed) return tooMany(admitted);
  const user = await db
    .selectFrom("users")
    .select(["id", "nickname", "user_type", "password_hash"])
    .where("email", "=", email)
    .executeTakeFirst();
  // Hash even for unknown addresses, so timing does not tell which e-mails have accounts.
  const valid = await verifyPassword(input.password, user?.password_hash ?? NO_ACCOUNT_HASH);
  if (!user || !valid) {
    await hit(db, RULES.signInAccount.bucket, email, RULES.signInAccount, now);
    return { ok: false, code: "INVALID_CREDENTIALS" };
  }
  const pair = `${email}\n${input.ip}`;
  await refund(db, RULES.signInAddress.bucket, input.ip, now);
  await forget(db, SIGN_IN_BACKOFF.bucket, pair);
  await remember(db, KNOWN_ADDRESS.bucket, pair, KNOWN_ADDRESS.ttlMs, now);
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

/**
 * Creates an individual member and signs them in (one transaction); the anonymous cart moves along. An e-mail that
 * already has an account is EMAIL_TAKEN, after the same password hash, and its owner is told by mail that someone
 * tried (docs/decisions.md, 2026-11-28): the route answers it like a join, without the session. Either mail (the
 * welcome, the notice) goes only within admitJoinMail's caps (per recipient, and per client address `ip` when
 * given), since nobody has verified the address; past them the join goes on without it.
 */
export async function joinMarket(
  db: DB,
  input: {
    email: string;
    password: string;
    nickname: string;
    marketEmailAgree: boolean;
    language: string;
    ngt?: string | null;
    ip?: string | null;
  },
  now = new Date(),
): Promise<JoinResult> {
  const email = input.email.trim().toLowerCase();
  // Hash first, whether or not the e-mail is taken: both answers cost the same scrypt.
  const passwordHash = await hashPassword(input.password);
  const sessionId = randomBytes(24).toString("base64url");
  // Counted before the transaction (the counters are written apart from it), for both answers alike.
  const mailAllowed = await admitJoinMail(db, input.ip ?? null, email, now);
  return db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom("users").select(["id", "language"]).where("email", "=", email).executeTakeFirst();
    if (taken) {
      if (mailAllowed) await queueMail(trx, joinAttemptMail(email, taken.language === "en" ? "en" : "ko"), now);
      return { ok: false as const, code: "EMAIL_TAKEN" as const };
    }
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
    if (mailAllowed) await queueMail(trx, welcomeMail(email, input.language === "en" ? "en" : "ko"), now);
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
