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
  return event ? promotionOf(db, locale, event) : null;
}

/**
 * The promo pop-up's content for an event carrying a coupon: the running one (above), or a draft the console
 * previews before it is saved. Null without a code and a percentage.
 */
export async function promotionOf(
  db: DB,
  locale: Locale,
  event: {
    title_ko: string;
    title_en: string;
    body_ko: string;
    body_en: string;
    image_path: string | null;
    coupon_code: string | null;
    discount_percent: number | null;
    ends_at: string;
  },
): Promise<Promotion | null> {
  if (!event.coupon_code || !event.discount_percent) return null;
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

/** A coupon code: 3 to 30 letters, digits, "-" or "_", kept in capitals (members may type it in any case). */
export const COUPON_CODE = /^[A-Z0-9][A-Z0-9_-]{2,29}$/;
export const COUPON_PERCENT = { min: 1, max: 90 } as const;

/**
 * Whether an event may carry this coupon (code already normalized, or null for none); throws the refusal. The
 * rules that keep "one coupon per ID" true when operators edit promotions:
 * - a code and a percentage together, or neither; the code's form, the percentage 1 to 90;
 * - a code belongs to one event only (a member's use is recorded by code, so a second event reusing a code would
 *   be refused to everyone who used the first, and a code shared by two running events would be ambiguous);
 * - a code members have already redeemed cannot be renamed: the new code would let each of them use the same
 *   promotion a second time. End it and start a new one instead (removing it stops new uses; orders keep theirs).
 */
export async function checkCouponChange(
  db: Executor,
  eventId: number | null,
  next: { code: string | null; percent: number | null },
): Promise<void> {
  if ((next.code === null) !== (next.percent === null))
    throw new MarketError("COUPON_INCOMPLETE", 400, "A coupon needs a code and a percentage");
  if (next.code === null || next.percent === null) {
    if (eventId === null) return;
  } else {
    if (!COUPON_CODE.test(next.code)) throw new MarketError("COUPON_CODE_FORM", 400, "The coupon code has letters, digits, - and _ only");
    if (!Number.isInteger(next.percent) || next.percent < COUPON_PERCENT.min || next.percent > COUPON_PERCENT.max)
      throw new MarketError("COUPON_PERCENT", 400, "The discount is 1 to 90 percent");
    let other = db.selectFrom("events").select("id").where("coupon_code", "=", next.code);
    if (eventId !== null) other = other.where("id", "<>", eventId);
    if (await other.executeTakeFirst()) throw new MarketError("COUPON_CODE_TAKEN", 409, "Another event has this coupon code");
  }
  if (eventId === null) return;
  const current = await db.selectFrom("events").select("coupon_code").where("id", "=", eventId).executeTakeFirst();
  const old = current?.coupon_code ?? null;
  if (old && next.code && old !== next.code && (await redemptionCount(db, old)) > 0)
    throw new MarketError("COUPON_REDEEMED", 409, "Members have used this coupon: its code cannot change");
}

/** How many members hold this coupon (one use per ID: one row per member and code). */
export async function redemptionCount(db: Executor, code: string): Promise<number> {
  const row = await db
    .selectFrom("coupon_redemptions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("code", "=", code)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
