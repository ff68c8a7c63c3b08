/**
 * What the shopper chose in the cart and on an item's page (issue 24, point 4): "Buy now" checks out that one item
 * without touching the cart, and deleting cart lines is confirmed first, listing exactly the lines that would go.
 */
import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import type { CartAddCode, CartOwner } from "./cart.server";
import { listCart, listCartPasses } from "./cart.server";
import { onSale, PACKAGE_MEMBER_COLUMNS } from "./catalog/cards.server";
import type { PassGroup } from "./pass-groups";

/**
 * The item "Buy now" buys: by the same rules as adding it to a cart (it exists, is on sale and is paid content),
 * answered as the cart's outcome codes so the item's page can say why not.
 */
export async function buyNowContent(db: DB, code: string): Promise<{ ok: true; contentId: number } | { ok: false; code: CartAddCode }> {
  const content = await db
    .selectFrom("contents")
    .select(["id", "price_type", "status", "price_krw", "price_usd"])
    .select(PACKAGE_MEMBER_COLUMNS)
    .where("code", "=", code)
    .executeTakeFirst();
  if (!content) return { ok: false, code: "NOT_FOUND" };
  if (!onSale(content)) return { ok: false, code: "DISCONTINUED" };
  if (content.price_type !== "paid") return { ok: false, code: "FREE_CONTENT" };
  return { ok: true, contentId: content.id };
}

export interface RemovalLine {
  cartId: number;
  title: string;
}

export interface RemovalPass {
  cartPassId: number;
  group: PassGroup;
  count: number;
}

/**
 * The lines a "Delete selected" would remove, for the shopper to confirm: only this owner's lines (others' ids are
 * ignored), content in the cart's order, then passes (members only).
 */
export async function linesToRemove(
  db: DB,
  owner: CartOwner,
  cartIds: readonly number[],
  passLineIds: readonly number[],
  locale: Locale,
  now = new Date(),
): Promise<{ lines: RemovalLine[]; passes: RemovalPass[] }> {
  const ids = new Set(cartIds);
  const passIds = new Set(passLineIds);
  const [cart, passes] = await Promise.all([
    ids.size ? listCart(db, owner, locale, undefined, now) : Promise.resolve({ lines: [] }),
    passIds.size && owner.userId ? listCartPasses(db, owner.userId, locale, now) : Promise.resolve([]),
  ]);
  return {
    lines: cart.lines.filter((l) => ids.has(l.cartId)).map((l) => ({ cartId: l.cartId, title: l.title })),
    passes: passes.filter((p) => passIds.has(p.cartPassId)).map((p) => ({ cartPassId: p.cartPassId, group: p.group, count: p.count })),
  };
}
