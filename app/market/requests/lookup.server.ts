/**
 * The key lookup both business flows start with (spec section 5): a B2BG product user has only a licence key and
 * its licensing e-mail. The key must be a business key whose owning account is a market member (section 6).
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { MarketError } from "../errors";
import type { LicenseIdentity } from "../licenses.server";
import { enforceInTurn, RULES, refund } from "../rate-limits.server";

export interface BusinessKey {
  licenseId: number;
  serial: string;
  alias: string | null;
  /** The licensing e-mail (receipts of direct purchases go there). */
  email: string;
  ownerUserId: number;
  ownerEmail: string;
  ownerLanguage: Locale;
  organization: string | null;
}

/** The refusals of a lookup, each with the spec's message (translated by code on pages and in the API). */
export const KEY_NOT_FOUND = "KEY_NOT_FOUND"; // No license key with this information found. Please check again.
export const KEY_NOT_BUSINESS = "KEY_NOT_BUSINESS"; // This license key is for individual members or non-members...
export const KEY_OWNER_NOT_MEMBER = "KEY_OWNER_NOT_MEMBER"; // the owning company account has not joined the market

const notFound = () => new MarketError(KEY_NOT_FOUND, 404, "No license key with this information found. Please check again.");

type Row = {
  id: number;
  serial: string;
  alias: string | null;
  email: string;
  owner_kind: string;
  user_id: number | null;
  status: string;
  valid_until: string | null;
  owner_email: string | null;
  owner_type: number | null;
  owner_language: string | null;
  organization: string | null;
};

function keyOf(row: Row | undefined, now: Date): BusinessKey {
  if (!row || row.status === "released" || (row.valid_until !== null && Date.parse(row.valid_until) <= now.getTime())) throw notFound();
  if (row.owner_kind !== "b2bg")
    throw new MarketError(KEY_NOT_BUSINESS, 409, "This license key is for individual members or non-members. Please check again.");
  if (row.user_id === null || row.owner_type !== 2 || !row.owner_email)
    throw new MarketError(
      KEY_OWNER_NOT_MEMBER,
      409,
      "The company account that owns this license key has not joined the market. Ask your administrator to join first.",
    );
  return {
    licenseId: row.id,
    serial: row.serial,
    alias: row.alias,
    email: row.email,
    ownerUserId: row.user_id,
    ownerEmail: row.owner_email,
    ownerLanguage: row.owner_language === "en" ? "en" : "ko",
    organization: row.organization,
  };
}

function byLicense(db: DB) {
  return db
    .selectFrom("licenses")
    .leftJoin("users", "users.id", "licenses.user_id")
    .select([
      "licenses.id",
      "licenses.serial",
      "licenses.alias",
      "licenses.email",
      "licenses.owner_kind",
      "licenses.user_id",
      "licenses.status",
      "licenses.valid_until",
      "users.email as owner_email",
      "users.user_type as owner_type",
      "users.language as owner_language",
      "users.organization",
    ]);
}

export const normalizeSerial = (serial: string) => serial.trim().toUpperCase();

/**
 * Looks up a key by its licensing e-mail (website and API callers without the editor). A wrong e-mail answers
 * exactly as an unknown key does. Limits (RULES, docs/security.md): every lookup counts against the address's high
 * ceiling; each is counted as a failure of the address before the lookup (so parallel guesses cannot all pass)
 * and given back when the key is found; a found key then counts for its key and its company, so the editor seats
 * of one office behind one address each look their own key up.
 */
export async function lookupBusinessKey(
  db: DB,
  input: { serial: string; email: string; ip: string },
  now = new Date(),
): Promise<BusinessKey> {
  await enforceInTurn(
    db,
    [
      [RULES.keyLookupAddress, input.ip],
      [RULES.keyLookupFailures, input.ip],
    ],
    now,
  );
  const row = await byLicense(db).where("licenses.serial", "=", normalizeSerial(input.serial)).executeTakeFirst();
  const email = input.email.trim().toLowerCase();
  const key = keyOf(row && row.email.trim().toLowerCase() === email ? row : undefined, now);
  // A lookup that found its key does not count as a failure.
  await refund(db, RULES.keyLookupFailures.bucket, input.ip, now);
  await enforceInTurn(
    db,
    [
      [RULES.keyLookupKey, String(key.licenseId)],
      [RULES.keyLookupCompany, String(key.ownerUserId)],
    ],
    now,
  );
  return key;
}

/** The business key of the editor installation that opened the webview (already verified by its hw_info). */
export async function businessKeyOfLicense(db: DB, license: LicenseIdentity, now = new Date()): Promise<BusinessKey> {
  return keyOf(await byLicense(db).where("licenses.id", "=", license.id).executeTakeFirst(), now);
}

/** A business key kept in a checkout (the pay session) or named by an order, checked again. */
export async function businessKeyById(db: DB, licenseId: number, now = new Date()): Promise<BusinessKey> {
  return keyOf(await byLicense(db).where("licenses.id", "=", licenseId).executeTakeFirst(), now);
}
