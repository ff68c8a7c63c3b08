import { sql } from "kysely";
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { hasActiveLicense } from "../licenses.server";
import { orderContents } from "../orders/order-names.server";
import { passState } from "../pass-status";

/** My page home: what the member has at a glance, all from the database. */
export async function memberSummary(db: DB, userId: number, locale: Locale, now = new Date()) {
  const count = async (table: "interests" | "carts" | "passes" | "orders" | "downloads" | "support_tickets", extra?: (q: any) => any) => {
    let q = db.selectFrom(table).select(sql<number>`count(*)`.as("n")).where("user_id", "=", userId);
    if (extra) q = extra(q);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const [favorites, cart, activePasses, orders, downloads, inquiries, licenses, recentOrders] = await Promise.all([
    count("interests"),
    count("carts"),
    // Passes that can still be used, by the one status rule (pass-status.ts): what /mypage/passes lists by default.
    db
      .selectFrom("passes")
      .select(["status", "remaining", "expires_at"])
      .where("user_id", "=", userId)
      .where("status", "=", "available")
      .where("expires_at", ">", now.toISOString())
      .execute()
      .then(
        (rows) =>
          rows.filter((r) => passState({ status: r.status, remaining: r.remaining, expiresAt: r.expires_at }, now) === "available").length,
      ),
    count("orders"),
    count("downloads"),
    count("support_tickets"),
    db
      .selectFrom("licenses")
      .select(["id", "serial", "alias", "status", "license_type", "valid_until", "pc_name"])
      .where("user_id", "=", userId)
      .orderBy("sort_order")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("orders")
      .select(["id", "order_no", "status", "currency", "total", "ptime", "created_at"])
      .where("user_id", "=", userId)
      // Placed orders only, as on /mypage/pay (an abandoned or failed attempt is not a payment).
      .where("status", "in", ["waiting", "complete", "cancelled", "partially_cancelled"])
      .orderBy("created_at", "desc")
      .limit(5)
      .execute(),
  ]);
  const [active, names] = await Promise.all([
    hasActiveLicense(db, userId, now),
    orderContents(
      db,
      recentOrders.map((o) => o.id),
      locale,
    ),
  ]);
  return {
    favorites,
    cart,
    activePasses,
    orders,
    downloads,
    inquiries,
    licenses,
    recentOrders: recentOrders.map((o) => ({ ...o, name: names.get(o.id) || o.order_no })),
    hasActiveLicense: active,
  };
}
