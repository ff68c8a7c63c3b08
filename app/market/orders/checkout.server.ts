/**
 * What is being bought: the lines of a checkout (selected cart items, or one pass), priced on the server in the
 * currency of the payment, and the licence the purchase goes to. Shared by the payment pages and the API.
 */
import { z } from "zod";
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import type { PayCurrency } from "../../integrations/payments/gateway";
import { PACKAGE_MEMBER_COLUMNS, saleUnit } from "../catalog/cards.server";
import { MarketError } from "../errors";
import { passGroupOf } from "../pass-groups";
import { USE_PERIOD_DAYS } from "../rules";
import { type OrderTotals, priceOrder } from "./pricing";

export const checkoutItemSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("content"), id: z.number().int().positive() }),
  z.object({ kind: z.literal("pass"), id: z.number().int().positive() }),
]);
export type CheckoutItem = z.infer<typeof checkoutItemSchema>;

/** At most this many lines in one order (a full cart). */
export const MAX_ORDER_LINES = 100;

export interface CheckoutLine {
  kind: "content" | "pass";
  refId: number;
  /** video | icon | audio | font | package, or pass */
  itemType: string;
  /** For a pass: its group (video, audio_bgm, ...) and size. */
  passGroup?: string;
  passCount?: number;
  code: string | null;
  title: string;
  image: string | null;
  unit: number;
  validDays: number;
}

export interface CheckoutQuote {
  currency: PayCurrency;
  lines: CheckoutLine[];
  totals: OrderTotals;
}

export { currencyOfMethod } from "./currency";

export interface Buyer {
  id: number;
  userType: number;
}

/**
 * The lines of a checkout, validated: only paid, active content and pass prices; business accounts cannot buy
 * passes (spec section 6); a checkout holds content or one pass, not both.
 */
export async function quoteCheckout(
  db: DB,
  buyer: Pick<Buyer, "userType">,
  items: readonly CheckoutItem[],
  currency: PayCurrency,
  locale: Locale,
  /** A coupon's percentage off every line. */
  discountPercent = 0,
): Promise<CheckoutQuote> {
  if (items.length === 0) throw new MarketError("CHECKOUT_EMPTY", 400, "Nothing to pay for");
  if (items.length > MAX_ORDER_LINES) throw new MarketError("CHECKOUT_TOO_LARGE", 400, "Too many items");
  const contentIds = [...new Set(items.filter((i) => i.kind === "content").map((i) => i.id))];
  const passIds = [...new Set(items.filter((i) => i.kind === "pass").map((i) => i.id))];
  if (passIds.length && buyer.userType === 2) throw new MarketError("BUSINESS_PASS", 403, "The service is for individual members");
  const lines: CheckoutLine[] = [];
  if (contentIds.length) {
    const rows = await db
      .selectFrom("contents")
      .select(["id", "code", "contents_type", "title_ko", "title_en", "poster_path", "price_type", "price_krw", "price_usd", "status"])
      .select(PACKAGE_MEMBER_COLUMNS)
      .where("id", "in", contentIds)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of contentIds) {
      const r = byId.get(id);
      // A package is sold for what remains of it (packagePrice); with nothing left it is as good as discontinued.
      const unit = r ? saleUnit(r, currency) : null;
      if (!r || unit === null) throw new MarketError("CONTENT_DISCONTINUED", 409, "This content has been discontinued");
      if (r.price_type !== "paid") throw new MarketError("NOT_FOR_SALE", 409, "Free and benefit content is not sold");
      lines.push({
        kind: "content",
        refId: r.id,
        itemType: r.contents_type,
        code: r.code,
        title: locale === "ko" ? r.title_ko : r.title_en,
        image: r.poster_path,
        unit,
        validDays: USE_PERIOD_DAYS,
      });
    }
  }
  if (passIds.length) {
    // Passes come from the pricing pages or the cart, alone or with content.
    const prices = await db.selectFrom("pass_prices").selectAll().where("id", "in", passIds).execute();
    for (const id of passIds) {
      const p = prices.find((x) => x.id === id);
      if (!p) throw new MarketError("PASS_NOT_FOUND", 404, "No such pass");
      const group = passGroupOf(p.contents_flag, p.contents_type_sub);
      lines.push({
        kind: "pass",
        refId: p.id,
        itemType: "pass",
        passGroup: group,
        passCount: p.contents_count,
        code: null,
        title: group,
        image: null,
        unit: currency === "KRW" ? p.price_krw : p.price_usd,
        validDays: p.valid_days,
      });
    }
  }
  return {
    currency,
    lines,
    totals: priceOrder(
      lines.map((l) => ({ unit: l.unit })),
      discountPercent,
    ),
  };
}

export interface LicenseChoice {
  id: number;
  serial: string;
  alias: string | null;
  licenseType: string;
  validUntil: string | null;
  /** The licence ends before the content's 90 usable days do. */
  shortTerm: boolean;
}

const ACTIVE = ["registered", "unlimited"];

function toChoice(r: { id: number; serial: string; alias: string | null; license_type: string; valid_until: string | null }, now: Date) {
  const shortTerm = r.valid_until !== null && Date.parse(r.valid_until) - now.getTime() < USE_PERIOD_DAYS * 86_400_000;
  return { id: r.id, serial: r.serial, alias: r.alias, licenseType: r.license_type, validUntil: r.valid_until, shortTerm };
}

/** The member's licences a purchase can go to: active and in term, in the member's order. */
export async function purchasableLicenses(db: DB, userId: number, now = new Date()): Promise<LicenseChoice[]> {
  const rows = await db
    .selectFrom("licenses")
    .select(["id", "serial", "alias", "license_type", "valid_until"])
    .where("user_id", "=", userId)
    .where("status", "in", ACTIVE)
    .where((eb) => eb.or([eb("valid_until", "is", null), eb("valid_until", ">", now.toISOString())]))
    .orderBy("sort_order")
    .orderBy("id")
    .execute();
  return rows.map((r) => toChoice(r, now));
}

/**
 * A licence for this purchase: one of the member's (by id or key), or an unowned, active non-member licence entered
 * by its key. Another's licence is never reached by its id alone: ids can be guessed, and the order shows the
 * licence's key to the buyer. Given both, id and key must name the same licence.
 */
export async function resolvePurchaseLicense(
  db: DB,
  userId: number,
  choice: { licenseId?: number; serial?: string },
  now = new Date(),
): Promise<LicenseChoice> {
  let q = db
    .selectFrom("licenses")
    .select(["id", "serial", "alias", "license_type", "valid_until", "user_id", "owner_kind", "status"])
    .where((eb) => eb.or([eb("valid_until", "is", null), eb("valid_until", ">", now.toISOString())]))
    .where("status", "in", ACTIVE);
  if (!choice.licenseId && !choice.serial) throw new MarketError("LICENSE_REQUIRED", 400, "Choose a licence");
  if (choice.licenseId) q = q.where("id", "=", choice.licenseId);
  if (choice.serial) q = q.where("serial", "=", choice.serial.trim().toUpperCase());
  const r = await q.executeTakeFirst();
  const usable = r && (r.user_id !== null ? r.user_id === userId : r.owner_kind === "nonmember" && Boolean(choice.serial));
  if (!r || !usable) throw new MarketError("LICENSE_NOT_FOUND", 404, "No license key with this information found. Please check again.");
  return toChoice(r, now);
}
