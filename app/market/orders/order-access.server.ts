/**
 * The signed, expiring link that opens one direct purchase for the key that made it (issue 24): a key-only buyer has
 * no login, and a browser opening a mail has no editor headers. The token names the order, the key and an expiry,
 * signed with HMAC-SHA256 under a key derived from the store's session secret; it opens that order and nothing else
 * (never a licence session: no other order of the key, no webview page).
 *
 * Mails are queued inside the change's transaction, where the secret is not at hand: they carry a mark
 * (`orderAccessMark`) that the mail worker turns into the signed token when it delivers (`resolveOrderAccess`),
 * as it does with PUBLIC_URL.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { USE_PERIOD_DAYS } from "../rules";

const DAY_MS = 86_400_000;

/** How long a mail's link opens its order: the use period (90 days) from payment, or from the mail when unpaid. */
export const ORDER_LINK_DAYS = USE_PERIOD_DAYS;

export interface OrderAccess {
  orderId: number;
  licenseId: number;
  /** Expiry, ms since the epoch. */
  expires: number;
}

const keyOf = (secret: string) => Buffer.from(hkdfSync("sha256", secret, "videoasset-market", "order-access-link", 32));

const signatureOf = (payload: string, secret: string) =>
  createHmac("sha256", keyOf(secret)).update(`order-access:v1:${payload}`).digest("base64url");

/** The link's expiry for an order: 90 days after its payment time, or after `now` for an order not yet paid. */
export const orderLinkExpiry = (paidAt: string | null, now: Date) =>
  (paidAt ? Date.parse(paidAt) : now.getTime()) + ORDER_LINK_DAYS * DAY_MS;

export function signOrderAccess(access: OrderAccess, secret: string): string {
  const payload = `${access.orderId}.${access.licenseId}.${access.expires}`;
  return `${payload}.${signatureOf(payload, secret)}`;
}

/**
 * What a token grants, "expired" for a genuine token past its expiry, or null for anything not signed with this
 * secret (tampered, truncated, foreign).
 */
export function verifyOrderAccess(token: string, secret: string, now = new Date()): OrderAccess | "expired" | null {
  const m = /^(\d{1,12})\.(\d{1,12})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const payload = `${m[1]}.${m[2]}.${m[3]}`;
  const given = Buffer.from(m[4] as string);
  const wanted = Buffer.from(signatureOf(payload, secret));
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
  const access = { orderId: Number(m[1]), licenseId: Number(m[2]), expires: Number(m[3]) };
  return access.expires <= now.getTime() ? "expired" : access;
}

const MARK = /%ORDER_ACCESS:(\d{1,12})\.(\d{1,12})\.(\d{1,15})%/g;

/** A stand-in for the token in a queued mail (digits and dots only: the same in text and HTML). */
export const orderAccessMark = (access: OrderAccess) => `%ORDER_ACCESS:${access.orderId}.${access.licenseId}.${access.expires}%`;

/** The page a key-only buyer's mail opens: that order, for that key, with the token (a mark until delivery). */
export const orderAccessPath = (orderId: number, token: string) => `/mypage/order/${orderId}?access=${token}`;

/** Replaces each mark with its signed token (at delivery); without a secret the marks become empty (the link is refused). */
export function resolveOrderAccess(body: string, secret: string | undefined): string {
  return body.replace(MARK, (_all, orderId: string, licenseId: string, expires: string) =>
    secret ? signOrderAccess({ orderId: Number(orderId), licenseId: Number(licenseId), expires: Number(expires) }, secret) : "",
  );
}
