/**
 * Sign-in from the editor (spec section 7: the auth service's request_blowfish and etc/decrypt?encrypt&type=1),
 * with a modern authenticated cipher instead of Blowfish (docs/editor-sign-in.md):
 * 1. the editor, holding its licence key and hardware fingerprint, asks for a hand-off token (`issueSignInHandOff`);
 *    what the token opens depends on the kind of key (`handOffKindOf`):
 *    - an individual member's key: that member's session;
 *    - a business (B2BG) key: the key-only webview for that key alone, never the representative's session (the
 *      spec's B2BG product users "hold only a licence key and no login");
 *    - a key no market account owns yet: the join-and-link page;
 *    the token is AES-256-GCM over { handoff id, kind, user id, licence id, expiry }, keyed from the store's secret;
 * 2. the editor opens the store with the token; redeeming it (`redeemSignInHandOff`) opens what it names, once,
 *    within two minutes.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { DB } from "../../db/db.server";
import { type CompanyAccounts, CompanyAccountsUnavailable, type LicenseOwner } from "../../integrations/accounts/company-accounts.server";
import { MarketError } from "../errors";
import { identifyLicense } from "../licenses.server";
import { enforceInTurn, RULES, refund } from "../rate-limits.server";
import { SESSION_DAYS } from "./auth.server";

/** A hand-off token lives this long: the editor opens the store right after asking for it. */
export const HANDOFF_TTL_MS = 2 * 60 * 1000;

/** Version 2 carries the kind; version-1 tokens (which always opened the owner's session) are no longer accepted. */
const VERSION = 2;

/** What redeeming a hand-off opens. */
export type HandOffKind = "member" | "key" | "join";
const KINDS: readonly HandOffKind[] = ["member", "key", "join"];

function keyOf(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "videoasset-market", "editor-sign-in-handoff", 32));
}

interface Payload {
  v: number;
  h: string;
  k: HandOffKind;
  /** The member signed in (kind member), else 0. */
  u: number;
  /** The licence the editor holds. */
  l: number;
  e: number;
}

/** base64url(iv ‖ ciphertext ‖ tag): confidential and tamper-evident. */
export function sealHandOff(payload: Omit<Payload, "v">, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify({ v: VERSION, ...payload }), "utf8"), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/** The payload, or null for anything that was not sealed with this secret (tampered, truncated, foreign). */
export function openHandOff(token: string, secret: string): Payload | null {
  if (!/^[A-Za-z0-9_-]{40,400}$/.test(token)) return null;
  const raw = Buffer.from(token, "base64url");
  if (raw.length < 12 + 16 + 2) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
    const p = JSON.parse(text) as Payload;
    return p.v === VERSION &&
      typeof p.h === "string" &&
      KINDS.includes(p.k) &&
      Number.isInteger(p.u) &&
      Number.isInteger(p.l) &&
      Number.isInteger(p.e)
      ? p
      : null;
  } catch {
    return null;
  }
}

export interface IssuedHandOff {
  kind: HandOffKind;
  encrypt: string;
  expiresAt: string;
}

/**
 * The one rule of what an editor seat's hand-off opens (docs/editor-sign-in.md, "Who can sign in as whom"):
 * - a business key (the licence is B2BG, or the company account service says its owner is a business account)
 *   opens the key-only webview for that key: never a session of the representative;
 * - a key whose owner has a market account opens that member's session, unless that account is a business
 *   account (then key-only as well: a business account is never signed in from an editor seat);
 * - a key no market account owns (a non-member's key, or an owner who has not joined) opens join-and-link.
 */
export function handOffKindOf(
  license: { ownerKind: string },
  owner: LicenseOwner | null,
  member: { userType: number } | undefined,
): HandOffKind {
  if (license.ownerKind === "b2bg" || owner?.userType === 2) return "key";
  if (member) return member.userType === 2 ? "key" : "member";
  return "join";
}

/**
 * A hand-off token for the editor installation (licence key + hardware fingerprint), of the kind `handOffKindOf`
 * gives. Refused when the installation is unknown (403) or the company account service cannot answer (503).
 */
export async function issueSignInHandOff(
  db: DB,
  accounts: CompanyAccounts,
  input: { serial: string; hwInfo: string; secret: string; ip: string },
  now = new Date(),
): Promise<IssuedHandOff> {
  await enforceInTurn(
    db,
    [
      [RULES.handOffAddress, input.ip],
      [RULES.handOffFailures, input.ip],
    ],
    now,
  );
  const license = await identifyLicense(db, input.serial, input.hwInfo);
  if (!license) throw new MarketError("LICENSE_NOT_FOUND", 403, "The license_id and hw_info headers do not match a registered licence");
  // A known installation is not a failure: it counts per licence (an office's seats share one address).
  await refund(db, RULES.handOffFailures.bucket, input.ip, now);
  await enforceInTurn(db, [[RULES.handOffKey, String(license.id)]], now);
  const owner = await accounts.ownerOfLicense(input.serial, input.hwInfo).catch((error) => {
    if (error instanceof CompanyAccountsUnavailable)
      throw new MarketError("ACCOUNTS_UNAVAILABLE", 503, "Please try again in a few minutes");
    throw error;
  });
  const member = owner
    ? await db
        .selectFrom("users")
        .select(["id", "user_type as userType"])
        .where("email", "=", owner.email.trim().toLowerCase())
        .executeTakeFirst()
    : undefined;
  const kind = handOffKindOf(license, owner, member);
  const userId = kind === "member" && member ? member.id : null;
  const id = randomBytes(16).toString("base64url");
  const expires = now.getTime() + HANDOFF_TTL_MS;
  await db
    .insertInto("sign_in_handoffs")
    .values({
      id,
      kind,
      user_id: userId,
      license_id: license.id,
      expires_at: new Date(expires).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return {
    kind,
    encrypt: sealHandOff({ h: id, k: kind, u: userId ?? 0, l: license.id, e: expires }, input.secret),
    expiresAt: new Date(expires).toISOString(),
  };
}

/** What a redeemed hand-off opens: a member's session, the key-only webview for one key, or join-and-link. */
export type RedeemedHandOff =
  | { kind: "member"; sessionId: string; user: { id: number; nickname: string; userType: number } }
  | { kind: "key"; license: { id: number; serial: string; hwInfo: string } }
  | { kind: "join"; license: { id: number; serial: string } };

/**
 * Redeems a token: it must be genuine, unexpired and not used before (the claim is one conditional update, so two
 * tabs racing with one token get one answer). A member token opens a session for its account (never a business
 * account's); a key token names the licence, still registered on the same installation; a join token names the key.
 * Null otherwise.
 */
export async function redeemSignInHandOff(
  db: DB,
  input: { token: string; secret: string },
  now = new Date(),
): Promise<RedeemedHandOff | null> {
  const payload = openHandOff(input.token, input.secret);
  if (!payload || payload.e <= now.getTime()) return null;
  const at = now.toISOString();
  return db.transaction().execute(async (trx): Promise<RedeemedHandOff | null> => {
    const claimed = await trx
      .updateTable("sign_in_handoffs")
      .set({ used_at: at })
      .where("id", "=", payload.h)
      .where("kind", "=", payload.k)
      .where("license_id", "=", payload.l)
      .where("used_at", "is", null)
      .where("expires_at", ">", at)
      .where((eb) => (payload.k === "member" ? eb("user_id", "=", payload.u) : eb("user_id", "is", null)))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    const license = await trx
      .selectFrom("licenses")
      .select(["id", "serial", "hw_info", "owner_kind"])
      .where("id", "=", payload.l)
      .where("status", "!=", "released")
      .executeTakeFirst();
    if (!license?.hw_info) return null;
    if (payload.k === "key") return { kind: "key", license: { id: license.id, serial: license.serial, hwInfo: license.hw_info } };
    if (payload.k === "join") return { kind: "join", license: { id: license.id, serial: license.serial } };
    // A member token: the licence must still not be a business key, and the account not a business account.
    if (license.owner_kind === "b2bg") return null;
    const user = await trx.selectFrom("users").select(["id", "nickname", "user_type"]).where("id", "=", payload.u).executeTakeFirst();
    if (!user || user.user_type === 2) return null;
    const sessionId = randomBytes(24).toString("base64url");
    await trx
      .insertInto("sessions")
      .values({
        id: sessionId,
        user_id: user.id,
        created_at: at,
        expires_at: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
      })
      .execute();
    return { kind: "member", sessionId, user: { id: user.id, nickname: user.nickname, userType: user.user_type } };
  });
}
