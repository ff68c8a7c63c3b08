/**
 * Marketing mail opt-out (spec: /rejection, /rejec-complete; RFC 8058 one-click): every marketing mail carries a
 * link with a signed token naming the member; following it (or a mail client's one-click POST) turns
 * market_email_agree off, with no login. Tokens do not expire (an old newsletter's link must still work) and cannot be
 * forged or moved to another member (HMAC-SHA256 with a key derived from the store's secret).
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../db/db.server";
import type { Database } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { newsletterMail } from "./messages.server";
import { queueMail } from "./queue.server";

const keyOf = (secret: string) => Buffer.from(hkdfSync("sha256", secret, "videoasset-market", "mail-unsubscribe", 32));
const macOf = (userId: number, secret: string) => createHmac("sha256", keyOf(secret)).update(`unsubscribe:${userId}`).digest();

export function unsubscribeToken(userId: number, secret: string): string {
  return `${Buffer.from(String(userId)).toString("base64url")}.${macOf(userId, secret).toString("base64url")}`;
}

/** The longest token the store signs: a member id of at most 16 characters, a dot and a 43-character MAC. */
export const UNSUBSCRIBE_TOKEN_MAX_CHARS = 16 + 1 + 43;

/** The member a token names, or null for anything not made by this store. */
export function readUnsubscribeToken(token: string, secret: string): number | null {
  const match = /^([A-Za-z0-9_-]{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const id = Number(Buffer.from(match[1], "base64url").toString("utf8"));
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const given = Buffer.from(match[2], "base64url");
  const expected = macOf(id, secret);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

export const unsubscribePath = (userId: number, secret: string) => `/rejection?token=${unsubscribeToken(userId, secret)}`;

/** The member's e-mail for the confirmation page, or null when the token names no member (withdrawn, forged). */
export async function unsubscribeTarget(db: DB, token: string, secret: string): Promise<{ userId: number; email: string } | null> {
  const id = readUnsubscribeToken(token, secret);
  if (!id) return null;
  const user = await db.selectFrom("users").select(["id", "email"]).where("id", "=", id).executeTakeFirst();
  return user ? { userId: user.id, email: user.email } : null;
}

/** Turns marketing mail off for the token's member; false when the token names no member. */
export async function unsubscribe(db: DB, token: string, secret: string): Promise<boolean> {
  const target = await unsubscribeTarget(db, token, secret);
  if (!target) return false;
  await db.updateTable("users").set({ market_email_agree: 0 }).where("id", "=", target.userId).execute();
  return true;
}

export interface Newsletter {
  subject: Record<Locale, string>;
  body: Record<Locale, string>;
}

/**
 * Queues a newsletter to every member who agreed to marketing mail, in their language, each with their own one-click
 * unsubscribe link and List-Unsubscribe headers; answers how many were queued.
 */
export async function queueNewsletter(db: DB, letter: Newsletter, secret: string, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx: Kysely<Database> | Transaction<Database>) => {
    const members = await trx.selectFrom("users").select(["id", "email", "language"]).where("market_email_agree", "=", 1).execute();
    for (const m of members) {
      const locale: Locale = m.language === "en" ? "en" : "ko";
      await queueMail(
        trx,
        newsletterMail(m.email, locale, {
          subject: letter.subject[locale],
          body: letter.body[locale],
          unsubscribePath: unsubscribePath(m.id, secret),
        }),
        now,
      );
    }
    return members.length;
  });
}
