import { createHash } from "node:crypto";
import { type RawBuilder, sql } from "kysely";
import type { DB } from "../db/db.server";
import { MarketError } from "./errors";

/**
 * Rate limits kept in the database (table rate_limits, migration 0012), so every server process counts the same
 * attempts. Each check is one statement (an upsert whose update is conditional), atomic on SQLite and PostgreSQL:
 * concurrent requests each take their own place in the count, none slips past a full window.
 *
 * - `hit`: a fixed window, `limit` hits per `windowMs` per (bucket, key);
 * - `backoff`: exponential back-off, `free` attempts then a wait that doubles with each further one;
 * - `refund` gives a hit back (a sign-in that succeeded does not count as a failure), `forget` clears a key,
 *   `remember`/`peek` keep and read a mark (an address an account has signed in from).
 *
 * Keys are stored as SHA-256 hashes (no e-mail or address in clear). Rows are forgotten at `expires_at`.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface Window {
  limit: number;
  windowMs: number;
}
export interface Rule extends Window {
  bucket: string;
}
export interface BackoffPolicy {
  bucket: string;
  /** Attempts before the first wait. */
  free: number;
  /** The first wait; each further attempt doubles it, up to maxMs. */
  baseMs: number;
  maxMs: number;
  /** Quiet time after which the count starts again (at least maxMs). */
  forgetMs: number;
}

export type Verdict = { allowed: true } | { allowed: false; retryAfterMs: number };
const ALLOWED: Verdict = { allowed: true };

/**
 * Every limit of the store. "Address" is the client IP (context.clientIp); "account" is the member, or the e-mail
 * an anonymous form names. Mail rules are for whatever sends mail (purchase requests, mail/send): check all three.
 */
export const RULES = {
  /** Failed sign-ins from one address over all accounts (credential stuffing). */
  signInAddress: { bucket: "signin:ip", limit: 30, windowMs: 15 * MINUTE },
  /** Failed sign-ins of one account over all addresses: past it, addresses it never signed in from are slowed. */
  signInAccount: { bucket: "signin:account", limit: 20, windowMs: 15 * MINUTE },
  /** The slowed pace: one attempt per 10 seconds for the account from unknown addresses (a wait, never a lock). */
  signInSlow: { bucket: "signin:slow", limit: 1, windowMs: 10 * SECOND },
  /** Joins from one address, successful or not (a shared office or classroom address may create a few accounts). */
  joinAddress: { bucket: "join:ip", limit: 20, windowMs: HOUR },
  joinEmail: { bucket: "join:email", limit: 5, windowMs: HOUR },
  /**
   * The mail a join sends (the welcome, or the notice to an address that already has an account) goes to an address
   * nobody has verified: at most one a day to an address, and ten a day from one client address. Past either the
   * join goes on without its mail, so the answer is the same and the store cannot be made to mail strangers in bulk.
   */
  joinMailRecipient: { bucket: "join:mail:to", limit: 1, windowMs: DAY },
  joinMailAddress: { bucket: "join:mail:ip", limit: 10, windowMs: DAY },
  inquiryAddress: { bucket: "inquiry:ip", limit: 5, windowMs: HOUR },
  inquiryAccount: { bucket: "inquiry:account", limit: 10, windowMs: DAY },
  /** Failed licence links (a successful link is refunded). */
  linkAddress: { bucket: "link:ip", limit: 20, windowMs: HOUR },
  linkAccount: { bucket: "link:account", limit: 10, windowMs: HOUR },
  /**
   * Licence-key lookups (key + licensing e-mail). An office is not one person: its editor seats share one address,
   * so found keys count per key and per company (the owning representative account), and the address only has a
   * high ceiling over all its lookups. Failed lookups stay tight per address: the lookup must not be a key oracle.
   * docs/security.md has the figures' reasons.
   */
  keyLookupFailures: { bucket: "keylookup:ip", limit: 20, windowMs: HOUR },
  keyLookupAddress: { bucket: "keylookup:ip:all", limit: 1000, windowMs: HOUR },
  keyLookupKey: { bucket: "keylookup:key", limit: 60, windowMs: HOUR },
  keyLookupCompany: { bucket: "keylookup:company", limit: 1000, windowMs: HOUR },
  /**
   * Purchase requests (each mails the representative and the requester): per key (one editor seat), per company
   * (the representative's mailbox), and a per-address ceiling above what a 50-seat office sends.
   */
  requestKey: { bucket: "request:key", limit: 30, windowMs: DAY },
  requestCompany: { bucket: "request:company", limit: 500, windowMs: DAY },
  requestAddress: { bucket: "request:ip", limit: 300, windowMs: HOUR },
  /**
   * The editor's sign-in hand-offs. Like key lookups, an office's seats share one address: hand-offs of a known
   * installation count per licence, the address has a ceiling, and unknown installations (a wrong hw_info, key
   * guessing) stay tight per address.
   */
  handOffFailures: { bucket: "handoff:ip", limit: 60, windowMs: HOUR },
  handOffAddress: { bucket: "handoff:ip:all", limit: 2000, windowMs: HOUR },
  handOffKey: { bucket: "handoff:key", limit: 60, windowMs: HOUR },
  mailAddress: { bucket: "mail:ip", limit: 10, windowMs: HOUR },
  mailAccount: { bucket: "mail:account", limit: 20, windowMs: DAY },
  mailRecipient: { bucket: "mail:to", limit: 5, windowMs: DAY },
  /** Failed operator sign-ins from one address (the console is a smaller door: a tighter limit than members'). */
  operatorSignInAddress: { bucket: "opsignin:ip", limit: 10, windowMs: 15 * MINUTE },
  /** Channel checks call YouTube's API (the store's quota). */
  youtubeAccount: { bucket: "youtube:account", limit: 10, windowMs: HOUR },
} as const satisfies Record<string, Rule>;

/** Failed sign-ins per (account, address): 5 free, then 1, 2, 4 ... minutes, at most an hour; forgotten after a quiet day. */
export const SIGN_IN_BACKOFF: BackoffPolicy = { bucket: "signin:pair", free: 5, baseMs: MINUTE, maxMs: HOUR, forgetMs: DAY };
/** Failed operator sign-ins per (operator, address): 3 free, then 1, 2, 4 ... minutes, at most an hour. */
export const OPERATOR_SIGN_IN_BACKOFF: BackoffPolicy = { bucket: "opsignin:pair", free: 3, baseMs: MINUTE, maxMs: HOUR, forgetMs: DAY };
/** How long an address an account signed in from stays known (exempt from the account's slowed pace). */
export const KNOWN_ADDRESS = { bucket: "signin:known", ttlMs: 90 * DAY } as const;

/**
 * Over a limit: the domain's answer, which pages show translated and the API as a 429 with Retry-After. `bucket`
 * names the limit that refused when its message says more than "too many attempts" (tooManyText).
 */
export class RateLimited extends MarketError {
  constructor(
    public readonly retryAfterMs: number,
    public readonly bucket?: string,
  ) {
    super("TOO_MANY_REQUESTS", 429, "Too many attempts");
    this.name = "RateLimited";
  }
}

const hashed = (key: string) => createHash("sha256").update(key).digest("base64url");
/** A bigint parameter (PostgreSQL cannot infer one inside CASE or arithmetic). */
const ms = (value: number) => sql<number>`cast(${value} as bigint)`;
const col = (name: "hits" | "expires_at" | "blocked_until") => sql.ref<number>(`rate_limits.${name}`);
const waitOf = (retryAt: number, now: number): Verdict => ({ allowed: false, retryAfterMs: Math.max(SECOND, retryAt - now) });

/** Counts one hit in (bucket, key)'s fixed window; refused once the window holds more than `limit`. */
export async function hit(db: DB, bucket: string, key: string, window: Window, now = new Date()): Promise<Verdict> {
  const t = now.getTime();
  const expired = sql<boolean>`${col("expires_at")} <= ${ms(t)}`;
  const row = await db
    .insertInto("rate_limits")
    .values({ bucket, key: hashed(key), hits: 1, expires_at: t + window.windowMs })
    .onConflict((oc) =>
      oc.columns(["bucket", "key"]).doUpdateSet({
        hits: sql<number>`case when ${expired} then 1 else ${col("hits")} + 1 end`,
        expires_at: sql<number>`case when ${expired} then ${ms(t + window.windowMs)} else ${col("expires_at")} end`,
      }),
    )
    .returning(["hits", "expires_at"])
    .executeTakeFirstOrThrow();
  await sweep(db, t);
  return Number(row.hits) <= window.limit ? ALLOWED : waitOf(Number(row.expires_at), t);
}

/** Counts a hit in each rule (all of them, even past a refusal) and answers the longest wait, if any. */
export async function hitAll(db: DB, checks: [Rule, string][], now = new Date()): Promise<Verdict> {
  let verdict = ALLOWED;
  for (const [rule, key] of checks) {
    const v = await hit(db, rule.bucket, key, rule, now);
    if (!v.allowed && (verdict.allowed || v.retryAfterMs > verdict.retryAfterMs)) verdict = v;
  }
  return verdict;
}

/** hitAll that throws RateLimited when refused (for the API and for routes that catch it). */
export async function enforce(db: DB, checks: [Rule, string][], now = new Date()): Promise<void> {
  const verdict = await hitAll(db, checks, now);
  if (!verdict.allowed) throw new RateLimited(verdict.retryAfterMs);
}

/**
 * Counts the checks one after the other, narrowest first, and stops at the first refusal (throwing RateLimited
 * with its bucket): the broader limits after it are not charged, so one editor seat past its own limit does not
 * use up its company's or its office address's.
 */
export async function enforceInTurn(db: DB, checks: [Rule, string][], now = new Date()): Promise<void> {
  for (const [rule, key] of checks) {
    const v = await hit(db, rule.bucket, key, rule, now);
    if (!v.allowed) throw new RateLimited(v.retryAfterMs, rule.bucket);
  }
}

/** Gives one hit back, within its window (an attempt that turned out well). */
export async function refund(db: DB, bucket: string, key: string, now = new Date()): Promise<void> {
  await db
    .updateTable("rate_limits")
    .set({ hits: sql<number>`hits - 1` })
    .where("bucket", "=", bucket)
    .where("key", "=", hashed(key))
    .where("hits", ">", 0)
    .where("expires_at", ">", now.getTime())
    .execute();
}

/** The hits (bucket, key) holds now: 0 when it has none or its window is over. */
export async function peek(db: DB, bucket: string, key: string, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom("rate_limits")
    .select("hits")
    .where("bucket", "=", bucket)
    .where("key", "=", hashed(key))
    .where("expires_at", ">", now.getTime())
    .executeTakeFirst();
  return row ? Number(row.hits) : 0;
}

/** Keeps a mark on (bucket, key) for ttlMs from now (renewed each time). */
export async function remember(db: DB, bucket: string, key: string, ttlMs: number, now = new Date()): Promise<void> {
  const until = now.getTime() + ttlMs;
  await db
    .insertInto("rate_limits")
    .values({ bucket, key: hashed(key), hits: 1, expires_at: until })
    .onConflict((oc) => oc.columns(["bucket", "key"]).doUpdateSet({ hits: 1, expires_at: ms(until) }))
    .execute();
}

export async function forget(db: DB, bucket: string, key: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("bucket", "=", bucket).where("key", "=", hashed(key)).execute();
}

/** The join limits (an address, the e-mail joined): counted for every join, successful or not. */
export const admitJoin = (db: DB, ip: string, email: string, now = new Date()) =>
  hitAll(
    db,
    [
      [RULES.joinAddress, ip],
      [RULES.joinEmail, email.trim().toLowerCase()],
    ],
    now,
  );

/**
 * Whether a join may send its mail (welcome or notice): the recipient first, then the client address (when known),
 * stopping at the first refusal so an address past its own cap does not use up the client's.
 */
export async function admitJoinMail(db: DB, ip: string | null, email: string, now = new Date()): Promise<boolean> {
  const checks: [Rule, string][] = [[RULES.joinMailRecipient, email.trim().toLowerCase()]];
  if (ip) checks.push([RULES.joinMailAddress, ip]);
  for (const [rule, key] of checks) if (!(await hit(db, rule.bucket, key, rule, now)).allowed) return false;
  return true;
}

/** The 1:1 inquiry limits: an address, and the member (or, signed out, the e-mail the form names). */
export const admitInquiry = (db: DB, ip: string, sender: { userId: number | null; email: string }, now = new Date()) =>
  hitAll(
    db,
    [
      [RULES.inquiryAddress, ip],
      [RULES.inquiryAccount, senderKey(sender)],
    ],
    now,
  );

/** The limits of anything that sends mail: call before queueing it (address, sender, and each recipient). */
export const admitMail = (db: DB, ip: string, sender: { userId: number | null; email: string }, to: string[], now = new Date()) =>
  hitAll(
    db,
    [
      [RULES.mailAddress, ip] as [Rule, string],
      [RULES.mailAccount, senderKey(sender)],
      ...to.map((r): [Rule, string] => [RULES.mailRecipient, r.trim().toLowerCase()]),
    ],
    now,
  );

const senderKey = (s: { userId: number | null; email: string }) => (s.userId ? `u:${s.userId}` : `e:${s.email.trim().toLowerCase()}`);

/** How long the n-th attempt (1-based) makes the next one wait. */
export function backoffDelay(policy: BackoffPolicy, n: number): number {
  return n < policy.free ? 0 : Math.min(policy.maxMs, policy.baseMs * 2 ** (n - policy.free));
}

/**
 * Takes one attempt under exponential back-off, before the attempt is made (so parallel attempts cannot all pass):
 * refused while (bucket, key) is blocked; otherwise counted, and the n-th attempt blocks the next for
 * backoffDelay(n). `forget` the key when the attempt succeeds.
 */
export async function backoff(db: DB, policy: BackoffPolicy, key: string, now = new Date()): Promise<Verdict> {
  const t = now.getTime();
  const hashedKey = hashed(key);
  const expired = sql<boolean>`${col("expires_at")} <= ${ms(t)}`;
  const n = sql<number>`(case when ${expired} then 1 else ${col("hits")} + 1 end)`;
  // backoffDelay in SQL: one branch per doubling, up to the cap.
  const steps: RawBuilder<unknown>[] = [];
  for (let k = policy.free; backoffDelay(policy, k) < policy.maxMs; k++)
    steps.push(sql`when ${n} = ${sql.lit(k)} then ${ms(t + backoffDelay(policy, k))}`);
  const blockedUntil = sql<number>`case when ${n} < ${sql.lit(policy.free)} then ${ms(0)} ${sql.join(steps, sql` `)} else ${ms(
    t + policy.maxMs,
  )} end`;
  const first = backoffDelay(policy, 1);
  const row = await db
    .insertInto("rate_limits")
    .values({ bucket: policy.bucket, key: hashedKey, hits: 1, blocked_until: first ? t + first : 0, expires_at: t + policy.forgetMs })
    .onConflict((oc) =>
      oc
        .columns(["bucket", "key"])
        .doUpdateSet({ hits: n, blocked_until: blockedUntil, expires_at: ms(t + Math.max(policy.forgetMs, policy.maxMs)) })
        .where(sql<boolean>`${col("blocked_until")} <= ${ms(t)}`),
    )
    .returning("hits")
    .executeTakeFirst();
  if (row) return ALLOWED;
  const blocked = await db
    .selectFrom("rate_limits")
    .select("blocked_until")
    .where("bucket", "=", policy.bucket)
    .where("key", "=", hashedKey)
    .executeTakeFirst();
  return waitOf(Number(blocked?.blocked_until ?? t), t);
}

/** Deletes the rows whose time is over. Also run every SWEEP_EVERY hits of this process. */
export async function pruneRateLimits(db: DB, now = new Date()): Promise<number> {
  const result = await db.deleteFrom("rate_limits").where("expires_at", "<=", now.getTime()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const SWEEP_EVERY = 500;
let sinceSweep = 0;
async function sweep(db: DB, t: number): Promise<void> {
  if (++sinceSweep < SWEEP_EVERY) return;
  sinceSweep = 0;
  await pruneRateLimits(db, new Date(t));
}
