/**
 * Sign-in from the editor (spec section 7: the auth service's request_blowfish and etc/decrypt?encrypt&type=1),
 * with a modern authenticated cipher instead of Blowfish (docs/editor-sign-in.md):
 * 1. the editor, holding its licence key and hardware fingerprint, asks for a hand-off token (`issueSignInHandOff`):
 *    the company account service says which account owns the installation, and the market account of that
 *    e-mail gets a token: AES-256-GCM over { handoff id, user id, expiry }, keyed from the store's secret;
 * 2. the editor opens the store with the token; redeeming it (`redeemSignInHandOff`) opens a session for that
 *    account without a password, once, within two minutes.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { DB } from "../../db/db.server";
import { type CompanyAccounts, CompanyAccountsUnavailable } from "../../integrations/accounts/company-accounts.server";
import { MarketError } from "../errors";
import { identifyLicense } from "../licenses.server";
import { SESSION_DAYS } from "./auth.server";

/** A hand-off token lives this long: the editor opens the store right after asking for it. */
export const HANDOFF_TTL_MS = 2 * 60 * 1000;

const VERSION = 1;

function keyOf(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "videoasset-market", "editor-sign-in-handoff", 32));
}

interface Payload {
  v: number;
  h: string;
  u: number;
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
    return p.v === VERSION && typeof p.h === "string" && Number.isInteger(p.u) && Number.isInteger(p.e) ? p : null;
  } catch {
    return null;
  }
}

export interface IssuedHandOff {
  encrypt: string;
  expiresAt: string;
}

/**
 * A hand-off token for the editor installation (licence key + hardware fingerprint): its owner's market account,
 * found through the company account service. Refused when the installation is unknown, or its owner has no market
 * account (they join first).
 */
export async function issueSignInHandOff(
  db: DB,
  accounts: CompanyAccounts,
  input: { serial: string; hwInfo: string; secret: string },
  now = new Date(),
): Promise<IssuedHandOff> {
  const license = await identifyLicense(db, input.serial, input.hwInfo);
  if (!license) throw new MarketError("LICENSE_NOT_FOUND", 403, "The license_id and hw_info headers do not match a registered licence");
  const owner = await accounts.ownerOfLicense(input.serial, input.hwInfo).catch((error) => {
    if (error instanceof CompanyAccountsUnavailable)
      throw new MarketError("ACCOUNTS_UNAVAILABLE", 503, "Please try again in a few minutes");
    throw error;
  });
  const user = owner
    ? await db.selectFrom("users").select("id").where("email", "=", owner.email.trim().toLowerCase()).executeTakeFirst()
    : undefined;
  if (!user) throw new MarketError("NOT_MARKET_MEMBER", 404, "The account that owns this licence has not joined the market");
  const id = randomBytes(16).toString("base64url");
  const expires = now.getTime() + HANDOFF_TTL_MS;
  await db
    .insertInto("sign_in_handoffs")
    .values({
      id,
      user_id: user.id,
      license_id: license.id,
      expires_at: new Date(expires).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return { encrypt: sealHandOff({ h: id, u: user.id, e: expires }, input.secret), expiresAt: new Date(expires).toISOString() };
}

export interface RedeemedHandOff {
  sessionId: string;
  user: { id: number; nickname: string; userType: number };
}

/**
 * Opens a session for the token's account: the token must be genuine, unexpired and not used before (the claim is
 * one conditional update, so two tabs racing with one token open one session). Null otherwise.
 */
export async function redeemSignInHandOff(
  db: DB,
  input: { token: string; secret: string },
  now = new Date(),
): Promise<RedeemedHandOff | null> {
  const payload = openHandOff(input.token, input.secret);
  if (!payload || payload.e <= now.getTime()) return null;
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("sign_in_handoffs")
      .set({ used_at: at })
      .where("id", "=", payload.h)
      .where("user_id", "=", payload.u)
      .where("used_at", "is", null)
      .where("expires_at", ">", at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    const user = await trx.selectFrom("users").select(["id", "nickname", "user_type"]).where("id", "=", payload.u).executeTakeFirst();
    if (!user) return null;
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
    return { sessionId, user: { id: user.id, nickname: user.nickname, userType: user.user_type } };
  });
}
