/**
 * Promotion coupons (spec section 2: promo pop-up with a discount coupon code, one coupon per ID). A coupon is an
 * event's code and percentage while the event runs; it is redeemed with the order that uses it, at most once per
 * account, and given back when that order fails, expires or is cancelled whole.
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { MarketError } from "../errors";
import { passGroupOf } from "../pass-groups";

export interface Coupon {
  code: string;
  percent: number;
}

export const normalizeCode = (code: string) => code.trim().toUpperCase();

/** The running promotion's coupon with this code, or null. */
export async function findCoupon(db: DB, code: string, now = new Date()): Promise<Coupon | null> {
  const at = now.toISOString();
  const row = await db
    .selectFrom("events")
    .select(["coupon_code", "discount_percent"])
    .where("coupon_code", "=", normalizeCode(code))
    .where("test_only", "=", 0)
    .where("starts_at", "<=", at)
    .where("ends_at", ">=", at)
    .executeTakeFirst();
  if (!row?.coupon_code || !row.discount_percent) return null;
  return { code: row.coupon_code, percent: row.discount_percent };
}

/** A coupon this member may use now: running, and not used by them on another order that is still standing. */
export async function usableCoupon(db: DB, userId: number, code: string, now = new Date(), forOrderId?: number): Promise<Coupon> {
  const coupon = await findCoupon(db, code, now);
  if (!coupon) throw new MarketError("COUPON_INVALID", 400, "This coupon code is not valid");
  const used = await db
    .selectFrom("coupon_redemptions")
    .innerJoin("orders", "orders.id", "coupon_redemptions.order_id")
    .select(["orders.id", "orders.status"])
    .where("coupon_redemptions.user_id", "=", userId)
    .where("coupon_redemptions.code", "=", coupon.code)
    .executeTakeFirst();
  // An unpaid attempt holds the coupon only until the member starts another checkout with it.
  if (used && used.id !== forOrderId && used.status !== "pending")
    throw new MarketError("COUPON_USED", 409, "This coupon has already been used");
  return coupon;
}

/** Gives the coupon of an order back (the order failed, expired or was cancelled whole). */
export async function releaseCoupon(db: DB, orderId: number): Promise<void> {
  await db.deleteFrom("coupon_redemptions").where("order_id", "=", orderId).execute();
}

export interface Promotion {
  title: string;
  body: string;
  image: string | null;
  code: string;
  percent: number;
  endsAt: string;
  /** Pass prices with the discount: the crossed-out price, the sale price. */
  offers: { group: string; count: number; price: number; sale: number; currency: "KRW" | "USD" }[];
}

/** The running promotion with a coupon, for the promo pop-up (/tempPop). */
export async function currentPromotion(db: DB, locale: Locale, now = new Date()): Promise<Promotion | null> {
  const at = now.toISOString();
  const event = await db
    .selectFrom("events")
    .selectAll()
    .where("coupon_code", "is not", null)
    .where("test_only", "=", 0)
    .where("starts_at", "<=", at)
    .where("ends_at", ">=", at)
    .orderBy("starts_at", "desc")
    .executeTakeFirst();
  if (!event?.coupon_code || !event.discount_percent) return null;
  const currency = locale === "ko" ? "KRW" : "USD";
  const prices = await db.selectFrom("pass_prices").selectAll().orderBy("contents_flag").orderBy("contents_count").limit(6).execute();
  const pct = event.discount_percent;
  return {
    title: locale === "ko" ? event.title_ko : event.title_en,
    body: locale === "ko" ? event.body_ko : event.body_en,
    image: event.image_path,
    code: event.coupon_code,
    percent: pct,
    endsAt: event.ends_at,
    offers: prices.map((p) => {
      const price = currency === "KRW" ? p.price_krw : p.price_usd;
      return {
        group: passGroupOf(p.contents_flag, p.contents_type_sub),
        count: p.contents_count,
        price,
        sale: price - Math.round((price * pct) / 100),
        currency,
      };
    }),
  };
}
