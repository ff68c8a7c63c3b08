/**
 * An order's items and the member's cart (issue 18, point 9): an order takes its items out of the cart when it is
 * placed for good (paid by card, phone, Kakao Pay or PayPal; a virtual account issued), and a virtual-account order
 * that expires or is closed before any deposit puts them back, as they were, so the member can pay again.
 */
import type { DB } from "../../db/db.server";
import { countCart, keepSince } from "../cart.server";
import { CART_MAX_ITEMS } from "../rules";

interface OrderRef {
  id: number;
  user_id: number | null;
}

async function orderLines(db: DB, orderId: number) {
  const items = await db.selectFrom("order_items").select(["content_id", "pass_price_id"]).where("order_id", "=", orderId).execute();
  return {
    contentIds: items.flatMap((i) => (i.content_id === null ? [] : [i.content_id])),
    passPriceIds: items.flatMap((i) => (i.pass_price_id === null ? [] : [i.pass_price_id])),
  };
}

/** Removes the order's contents and passes from its member's cart (in the caller's transaction). */
export async function takeOrderFromCart(db: DB, order: OrderRef): Promise<void> {
  if (order.user_id === null) return;
  const { contentIds, passPriceIds } = await orderLines(db, order.id);
  if (contentIds.length) await db.deleteFrom("carts").where("user_id", "=", order.user_id).where("content_id", "in", contentIds).execute();
  if (passPriceIds.length)
    await db.deleteFrom("cart_passes").where("user_id", "=", order.user_id).where("pass_price_id", "in", passPriceIds).execute();
}

/**
 * Puts an unpaid order's items back in its member's cart (in the caller's transaction, before its items are
 * deleted): those still on sale and not already there, up to the cart's 100 items; answers how many went back.
 */
export async function restoreOrderToCart(db: DB, order: OrderRef, now = new Date()): Promise<number> {
  if (order.user_id === null) return 0;
  const userId = order.user_id;
  const { contentIds, passPriceIds } = await orderLines(db, order.id);
  // Lines past the cart's keep period are gone for the member; they make way for the restored ones.
  await db.deleteFrom("carts").where("user_id", "=", userId).where("created_at", "<", keepSince(now)).execute();
  await db.deleteFrom("cart_passes").where("user_id", "=", userId).where("created_at", "<", keepSince(now)).execute();
  let room = CART_MAX_ITEMS - (await countCart(db, { userId, ngt: null }, now));
  const at = now.toISOString();
  let restored = 0;
  if (contentIds.length) {
    const inCart = new Set(
      (await db.selectFrom("carts").select("content_id").where("user_id", "=", userId).where("content_id", "in", contentIds).execute()).map(
        (r) => r.content_id,
      ),
    );
    const onSale = new Set(
      (await db.selectFrom("contents").select("id").where("id", "in", contentIds).where("status", "=", "active").execute()).map(
        (r) => r.id,
      ),
    );
    const back = contentIds.filter((id) => !inCart.has(id) && onSale.has(id)).slice(0, Math.max(room, 0));
    if (back.length) {
      await db
        .insertInto("carts")
        .values(back.map((content_id) => ({ user_id: userId, ngt: null, content_id, level_flag: 0, created_at: at })))
        .execute();
      room -= back.length;
      restored += back.length;
    }
  }
  if (passPriceIds.length && room > 0) {
    const inCart = new Set(
      (
        await db
          .selectFrom("cart_passes")
          .select("pass_price_id")
          .where("user_id", "=", userId)
          .where("pass_price_id", "in", passPriceIds)
          .execute()
      ).map((r) => r.pass_price_id),
    );
    const offered = new Set((await db.selectFrom("pass_prices").select("id").where("id", "in", passPriceIds).execute()).map((r) => r.id));
    const back = passPriceIds.filter((id) => !inCart.has(id) && offered.has(id)).slice(0, room);
    if (back.length) {
      await db
        .insertInto("cart_passes")
        .values(back.map((pass_price_id) => ({ user_id: userId, pass_price_id, created_at: at })))
        .execute();
      restored += back.length;
    }
  }
  return restored;
}
