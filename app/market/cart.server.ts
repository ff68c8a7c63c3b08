import { randomBytes } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";
import type { DB } from "../db/db.server";
import { isPostgres } from "../db/dialect";
import type { ContentsType, Database } from "../db/schema";
import type { Locale } from "../i18n/config";
import type { CART_OUTCOMES } from "./cart-outcomes";
import { CARD_COLUMNS, type ContentCard, onSale, PACKAGE_MEMBER_COLUMNS, toCard } from "./catalog/cards.server";
import { MarketError } from "./errors";
import { vatOf } from "./money";
import { type PassGroup, passGroupOf } from "./pass-groups";
import { CART_KEEP_DAYS, CART_MAX_ITEMS } from "./rules";

export interface CartOwner {
  userId: number | null;
  ngt: string | null;
}

/** Cart add outcomes (spec section 8) plus why an item cannot be added at all. */
export type CartAddCode = (typeof CART_OUTCOMES)[number];

export const newCartToken = () => randomBytes(18).toString("base64url");

/** Cart lines (content and passes) older than this are gone (spec: kept 30 days). */
export const keepSince = (now: Date) => new Date(now.getTime() - CART_KEEP_DAYS * 86_400_000).toISOString();

function ownerFilter<Q extends { where: (...args: any[]) => Q }>(q: Q, owner: CartOwner): Q {
  return owner.userId
    ? q.where("carts.user_id", "=", owner.userId)
    : q.where("carts.ngt", "=", owner.ngt).where("carts.user_id", "is", null);
}

/** Items in a member's cart, or an anonymous cart (ngt), not older than the keep period (30 days). */
export async function countCart(db: DB, owner: CartOwner, now = new Date()): Promise<number> {
  if (!owner.userId && !owner.ngt) return 0;
  const row = await ownerFilter(db.selectFrom("carts").select(sql<number>`count(*)`.as("n")), owner)
    .where("carts.created_at", ">=", keepSince(now))
    .executeTakeFirstOrThrow();
  // A member's cart also holds passes; they count toward the 100 items.
  const passes = owner.userId
    ? await db
        .selectFrom("cart_passes")
        .select(sql<number>`count(*)`.as("n"))
        .where("user_id", "=", owner.userId)
        .where("created_at", ">=", keepSince(now))
        .executeTakeFirstOrThrow()
    : { n: 0 };
  return Number(row.n) + Number(passes.n);
}

export interface CartPassLine {
  cartPassId: number;
  passPriceId: number;
  group: PassGroup;
  count: number;
  price: number;
  currency: "KRW" | "USD";
  validDays: number;
}

/**
 * Puts a pass in a member's cart (passes are for individual members: a business account gets the refusal).
 * Under the cart's lock, like content: the 100-item limit holds for both together.
 */
export async function addPassToCart(
  db: DB,
  member: { id: number; userType: number },
  passPriceId: number,
  now = new Date(),
): Promise<{ code: CartAddCode; cartCount: number }> {
  if (member.userType === 2) throw new MarketError("BUSINESS_PASS", 403, "The service is for individual members");
  const owner = { userId: member.id, ngt: null };
  return db.transaction().execute(async (trx) => {
    if (isPostgres(trx)) await sql`SELECT pg_advisory_xact_lock(hashtext(${`user:${member.id}`}))`.execute(trx);
    await trx.deleteFrom("cart_passes").where("user_id", "=", member.id).where("created_at", "<", keepSince(now)).execute();
    const count = await countCart(trx, owner, now);
    const price = await trx.selectFrom("pass_prices").select("id").where("id", "=", passPriceId).executeTakeFirst();
    if (!price) return { code: "NOT_FOUND" as CartAddCode, cartCount: count };
    const existing = await trx
      .selectFrom("cart_passes")
      .select("id")
      .where("user_id", "=", member.id)
      .where("pass_price_id", "=", passPriceId)
      .executeTakeFirst();
    if (existing) return { code: "ALREADY_HAVE_ITEM" as CartAddCode, cartCount: count };
    if (count >= CART_MAX_ITEMS) return { code: "EXCEED_CART" as CartAddCode, cartCount: count };
    await trx.insertInto("cart_passes").values({ user_id: member.id, pass_price_id: passPriceId, created_at: now.toISOString() }).execute();
    return { code: "SUCCESS" as CartAddCode, cartCount: count + 1 };
  });
}

/** The passes in a member's cart, priced in the visitor's currency. */
export async function listCartPasses(db: DB, userId: number, locale: Locale, now = new Date()): Promise<CartPassLine[]> {
  const rows = await db
    .selectFrom("cart_passes")
    .innerJoin("pass_prices", "pass_prices.id", "cart_passes.pass_price_id")
    .select([
      "cart_passes.id",
      "pass_prices.id as price_id",
      "pass_prices.contents_flag",
      "pass_prices.contents_type_sub",
      "pass_prices.contents_count",
      "pass_prices.price_krw",
      "pass_prices.price_usd",
      "pass_prices.valid_days",
    ])
    .where("cart_passes.user_id", "=", userId)
    .where("cart_passes.created_at", ">=", keepSince(now))
    .orderBy("cart_passes.id", "desc")
    .execute();
  const currency = locale === "ko" ? "KRW" : "USD";
  return rows.map((r) => ({
    cartPassId: r.id,
    passPriceId: r.price_id,
    group: passGroupOf(r.contents_flag, r.contents_type_sub),
    count: r.contents_count,
    price: currency === "KRW" ? r.price_krw : r.price_usd,
    currency,
    validDays: r.valid_days,
  }));
}

/** The pass prices behind these cart lines of a member (others' ids are ignored). */
export async function cartPassPrices(db: DB, userId: number, cartPassIds: number[]): Promise<number[]> {
  if (!cartPassIds.length) return [];
  const rows = await db
    .selectFrom("cart_passes")
    .select("pass_price_id")
    .where("user_id", "=", userId)
    .where("id", "in", cartPassIds)
    .execute();
  return rows.map((r) => r.pass_price_id);
}

export async function removeCartPasses(db: DB, userId: number, cartPassIds: number[]): Promise<number> {
  if (!cartPassIds.length) return 0;
  const result = await db.deleteFrom("cart_passes").where("user_id", "=", userId).where("id", "in", cartPassIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Adds items to a cart, all or nothing per item, in one transaction that holds the cart's lock, so two tabs
 * adding the 100th item at once leave 100 items, not 101. Answers the first outcome that is not SUCCESS.
 */
export async function addToCart(
  db: DB,
  owner: CartOwner,
  items: { code: string; levelFlag?: number; type?: ContentsType }[],
  now = new Date(),
): Promise<{ code: CartAddCode; cartCount: number; added: number }> {
  if (!owner.userId && !owner.ngt) throw new Error("a cart needs an owner");
  return db.transaction().execute(async (trx) => {
    if (isPostgres(trx)) {
      const key = owner.userId ? `user:${owner.userId}` : `ngt:${owner.ngt}`;
      await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    }
    // Expired rows do not count and go now.
    await ownerFilter(trx.deleteFrom("carts"), owner).where("carts.created_at", "<", keepSince(now)).execute();
    let count = await countCart(trx, owner, now);
    let code: CartAddCode = "SUCCESS";
    let added = 0;
    for (const item of items) {
      const content = await trx
        .selectFrom("contents")
        .select(["id", "price_type", "status", "price_krw", "price_usd"])
        .select(PACKAGE_MEMBER_COLUMNS)
        .where("code", "=", item.code)
        .executeTakeFirst();
      let outcome: CartAddCode = "SUCCESS";
      if (!content) outcome = "NOT_FOUND";
      // A package whose members are all discontinued is as good as discontinued.
      else if (!onSale(content)) outcome = "DISCONTINUED";
      else if (content.price_type !== "paid") outcome = "FREE_CONTENT";
      else {
        const existing = await ownerFilter(trx.selectFrom("carts").select("carts.id"), owner)
          .where("carts.content_id", "=", content.id)
          .executeTakeFirst();
        if (existing) outcome = "ALREADY_HAVE_ITEM";
        else if (count >= CART_MAX_ITEMS) outcome = "EXCEED_CART";
        else {
          await trx
            .insertInto("carts")
            .values({
              user_id: owner.userId,
              ngt: owner.userId ? null : owner.ngt,
              content_id: content.id,
              level_flag: item.levelFlag ?? 0,
              created_at: now.toISOString(),
            })
            .execute();
          count++;
          added++;
        }
      }
      if (code === "SUCCESS" && outcome !== "SUCCESS") code = outcome;
    }
    return { code, cartCount: count, added };
  });
}

export interface CartLine extends ContentCard {
  cartId: number;
  addedAt: string;
  /** The line's level flag (the API's contents_file_type). */
  levelFlag: number;
}

export interface CartView {
  lines: CartLine[];
  counts: Record<ContentsType, number>;
  /** Totals of the lines shown, VAT excluded / VAT / included, in the visitor's currency. */
  amount: number;
  vat: number;
  total: number;
}

/** A cart line that can be bought: active, paid content. */
export const isPayable = (line: { discontinued: boolean; priceType: string }) => !line.discontinued && line.priceType === "paid";

export async function listCart(db: DB, owner: CartOwner, locale: Locale, type?: ContentsType, now = new Date()): Promise<CartView> {
  const counts: Record<ContentsType, number> = { video: 0, icon: 0, audio: 0, font: 0, package: 0 };
  if (!owner.userId && !owner.ngt) return { lines: [], counts, amount: 0, vat: 0, total: 0 };
  const rows = await ownerFilter(
    db
      .selectFrom("carts")
      .innerJoin("contents", "contents.id", "carts.content_id")
      .select(CARD_COLUMNS)
      .select(["carts.id as cart_id", "carts.created_at as added_at", "carts.level_flag"]),
    owner,
  )
    .where("carts.created_at", ">=", keepSince(now))
    .orderBy("carts.created_at", "desc")
    .orderBy("carts.id", "desc")
    .execute();
  const all = rows.map((r) => ({ ...toCard(r, locale), cartId: r.cart_id, addedAt: r.added_at, levelFlag: r.level_flag }));
  for (const l of all) counts[l.type]++;
  const lines = type ? all.filter((l) => l.type === type) : all;
  const payable = lines.filter(isPayable);
  const amount = payable.reduce((n, l) => n + l.price, 0);
  const vat = payable.reduce((n, l) => n + vatOf(l.price), 0);
  return { lines, counts, amount, vat, total: amount + vat };
}

/** The content of these cart lines of this owner that can be paid for (active, paid; others' ids ignored). */
export async function payableCartContents(db: DB, owner: CartOwner, cartIds: number[]): Promise<number[]> {
  if (!cartIds.length) return [];
  const rows = await ownerFilter(
    db
      .selectFrom("carts")
      .innerJoin("contents", "contents.id", "carts.content_id")
      .select(["contents.id", "contents.status", "contents.price_krw", "contents.price_usd"])
      .select(PACKAGE_MEMBER_COLUMNS),
    owner,
  )
    .where("carts.id", "in", cartIds)
    .where("contents.status", "=", "active")
    .where("contents.price_type", "=", "paid")
    .orderBy("carts.created_at", "desc")
    .execute();
  return [...new Set(rows.filter(onSale).map((r) => r.id))];
}

/** Removes lines of this owner's cart (others' ids are ignored). Answers how many went. */
export async function removeFromCart(db: DB, owner: CartOwner, cartIds: number[]): Promise<number> {
  if (!cartIds.length || (!owner.userId && !owner.ngt)) return 0;
  const result = await ownerFilter(db.deleteFrom("carts"), owner).where("carts.id", "in", cartIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Moves cart lines to the member's favorites (interests) and out of the cart, in one transaction. */
export async function moveCartToFavorites(db: DB, userId: number, cartIds: number[], now = new Date()): Promise<number> {
  if (!cartIds.length) return 0;
  return db.transaction().execute(async (trx) => {
    const lines = await trx
      .selectFrom("carts")
      .select(["id", "content_id"])
      .where("user_id", "=", userId)
      .where("id", "in", cartIds)
      .execute();
    for (const l of lines) {
      await trx
        .insertInto("interests")
        .values({ user_id: userId, content_id: l.content_id, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(["user_id", "content_id"]).doNothing())
        .execute();
    }
    if (lines.length)
      await trx
        .deleteFrom("carts")
        .where(
          "id",
          "in",
          lines.map((l) => l.id),
        )
        .execute();
    return lines.length;
  });
}

/**
 * Takes these items out of a cart, in the caller's transaction: a purchase request was sent for them (issue 24,
 * point 5), so the requester does not buy them as well. Answers how many lines went.
 */
export async function removeContentsFromCart(
  db: Kysely<Database> | Transaction<Database>,
  owner: CartOwner,
  contentIds: readonly number[],
): Promise<number> {
  if (!contentIds.length || (!owner.userId && !owner.ngt)) return 0;
  const result = await ownerFilter(db.deleteFrom("carts"), owner)
    .where("carts.content_id", "in", [...contentIds])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
