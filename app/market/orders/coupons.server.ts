/**
 * Promotion coupons (spec section 2: promo pop-up with a discount coupon code, one coupon per ID). A coupon is an
 * event's code and percentage while the event runs; it is redeemed with the order that uses it, at most once per
 * account, and given back when that order fails, expires or is cancelled whole. The reservation is the row in
 * `coupon_redemptions` (unique per account and code): only the order it names may be fulfilled at the discount.
 */
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../db/db.server";
import type { Database } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { MarketError } from "../errors";
import { passGroupOf } from "../pass-groups";

type Executor = Kysely<Database> | Transaction<Database>;

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

/**
 * Whether the order holding a member's coupon gives it up to a new checkout of theirs: an attempt never paid and
 * with no payment in progress at the gateway (it is closed for good first, see `reserveCoupon`), or an order
 * that failed or was cancelled whole and still holds it. Virtual accounts waiting for a deposit, payments in
 * progress (PayPal eCheck) and paid orders keep it.
 */
export function givesCouponUp(holder: { status: string; pending_reason: string | null }): boolean {
  if (holder.status === "pending") return holder.pending_reason === null;
  return holder.status === "failed" || holder.status === "cancelled";
}

/** The order holding this member's coupon, if any. */
async function couponHolder(db: Executor, userId: number, code: string) {
  return db
    .selectFrom("coupon_redemptions")
    .innerJoin("orders", "orders.id", "coupon_redemptions.order_id")
    .select(["coupon_redemptions.id as redemptionId", "orders.id", "orders.status", "orders.pending_reason"])
    .where("coupon_redemptions.user_id", "=", userId)
    .where("coupon_redemptions.code", "=", code)
    .executeTakeFirst();
}

const couponUsed = () => new MarketError("COUPON_USED", 409, "This coupon has already been used");

/** A coupon this member may use now: running, and not held by another order of theirs that keeps it. */
export async function usableCoupon(db: DB, userId: number, code: string, now = new Date(), forOrderId?: number): Promise<Coupon> {
  const coupon = await findCoupon(db, code, now);
  if (!coupon) throw new MarketError("COUPON_INVALID", 400, "This coupon code is not valid");
  const holder = await couponHolder(db, userId, coupon.code);
  if (holder && holder.id !== forOrderId && !givesCouponUp(holder)) throw couponUsed();
  return coupon;
}

/**
 * Reserves the member's coupon for a new order, inside the transaction that writes the order. A coupon held by
 * the member's own unpaid attempt is taken only after that attempt is closed for good (pending → failed, a
 * conditional update: an attempt paid or issued a virtual account meanwhile keeps it), so no payment can later
 * complete it at the discount; a late payment on it is refunded by settlement. A coupon held by an order that
 * keeps it, or taken by a checkout racing this one (the unique index on user and code), answers COUPON_USED.
 */
export async function reserveCoupon(trx: Executor, userId: number, code: string, orderId: number, at: string): Promise<void> {
  const holder = await couponHolder(trx, userId, code);
  if (!holder) {
    const inserted = await trx
      .insertInto("coupon_redemptions")
      .values({ user_id: userId, code, order_id: orderId, created_at: at })
      .onConflict((oc) => oc.columns(["user_id", "code"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) throw couponUsed();
    return;
  }
  if (!givesCouponUp(holder)) throw couponUsed();
  if (holder.status === "pending") {
    const closed = await trx
      .updateTable("orders")
      .set({ status: "failed", failure_message: "superseded by another checkout", updated_at: at })
      .where("id", "=", holder.id)
      .where("status", "=", "pending")
      .where("pending_reason", "is", null)
      .executeTakeFirst();
    if (Number(closed.numUpdatedRows) !== 1) throw couponUsed();
  }
  const moved = await trx
    .updateTable("coupon_redemptions")
    .set({ order_id: orderId, created_at: at })
    .where("id", "=", holder.redemptionId)
    .where("order_id", "=", holder.id)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw couponUsed();
}

/** Gives the coupon of an order back (the order failed, expired or was cancelled whole). */
export async function releaseCoupon(db: Executor, orderId: number): Promise<void> {
  await db.deleteFrom("coupon_redemptions").where("order_id", "=", orderId).execute();
}

/** Whether the order still holds the coupon it was priced with (settlement checks before fulfilling it). */
export async function holdsCoupon(db: Executor, orderId: number): Promise<boolean> {
  return Boolean(await db.selectFrom("coupon_redemptions").select("id").where("order_id", "=", orderId).executeTakeFirst());
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
