import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";

export interface Certificate {
  number: string;
  orderNo: string;
  item: { code: string; title: string; type: string };
  licence: { serial: string; alias: string | null } | null;
  buyer: { nickname: string; email: string; youtubeChannelId: string | null };
  paidAt: string;
  usableUntil: string | null;
  status: string;
}

/**
 * The licence certificate of one purchased item: what a member shows when a platform's copyright system (YouTube
 * Content ID) claims their video. It ties the item to the editor licence it was bought for.
 */
export async function certificateOf(db: DB, userId: number, lineId: number, locale: Locale): Promise<Certificate | null> {
  const row = await db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.order_id")
    .innerJoin("contents", "contents.id", "order_items.content_id")
    .innerJoin("users", "users.id", "orders.user_id")
    .leftJoin("licenses", "licenses.id", "orders.license_id")
    .select([
      "order_items.id",
      "order_items.status",
      "order_items.expires_at",
      "orders.order_no",
      "orders.ptime",
      "contents.code",
      "contents.title_ko",
      "contents.title_en",
      "contents.contents_type",
      "users.nickname",
      "users.email",
      "users.youtube_channel_id",
      "licenses.serial",
      "licenses.alias",
    ])
    .where("order_items.id", "=", lineId)
    .where("orders.user_id", "=", userId)
    .where("orders.status", "in", ["complete", "partially_cancelled"])
    .executeTakeFirst();
  if (!row?.ptime) return null;
  return {
    number: `${row.order_no}-${String(row.id).padStart(6, "0")}`,
    orderNo: row.order_no,
    item: { code: row.code, title: locale === "ko" ? row.title_ko : row.title_en, type: row.contents_type },
    licence: row.serial ? { serial: row.serial, alias: row.alias } : null,
    buyer: { nickname: row.nickname, email: row.email, youtubeChannelId: row.youtube_channel_id },
    paidAt: row.ptime,
    usableUntil: row.expires_at,
    status: row.status,
  };
}

/**
 * The certificate of one item of a key-only buyer's direct purchase (issue 24), for that key only: the buyer is the
 * company owning the key (its representative's organization, and the representative's YouTube channel, the one the
 * spec protects), reached by the licensing e-mail the order was bought with.
 */
export async function keyCertificateOf(
  db: DB,
  keyLicenseId: number,
  lineId: number,
  locale: Locale,
  /** The one order a signed link grants: a line of another order of the key is not found. */
  orderId?: number,
): Promise<Certificate | null> {
  let q = db
    .selectFrom("order_items")
    .innerJoin("orders", "orders.id", "order_items.order_id")
    .innerJoin("contents", "contents.id", "order_items.content_id")
    .innerJoin("licenses", "licenses.id", "orders.license_id")
    .leftJoin("users", "users.id", "licenses.user_id")
    .select([
      "order_items.id",
      "order_items.status",
      "order_items.expires_at",
      "orders.order_no",
      "orders.ptime",
      "orders.buyer_email",
      "contents.code",
      "contents.title_ko",
      "contents.title_en",
      "contents.contents_type",
      "users.organization",
      "users.nickname",
      "users.youtube_channel_id",
      "licenses.serial",
      "licenses.alias",
      "licenses.email as license_email",
    ])
    .where("order_items.id", "=", lineId)
    .where("orders.license_id", "=", keyLicenseId)
    .where("orders.user_id", "is", null)
    .where("orders.purchase_category", "=", "direct")
    .where("orders.status", "in", ["complete", "partially_cancelled"]);
  if (orderId !== undefined) q = q.where("orders.id", "=", orderId);
  const row = await q.executeTakeFirst();
  if (!row?.ptime) return null;
  const email = row.buyer_email ?? row.license_email;
  return {
    number: `${row.order_no}-${String(row.id).padStart(6, "0")}`,
    orderNo: row.order_no,
    item: { code: row.code, title: locale === "ko" ? row.title_ko : row.title_en, type: row.contents_type },
    licence: { serial: row.serial, alias: row.alias },
    buyer: { nickname: row.organization || row.nickname || email, email, youtubeChannelId: row.youtube_channel_id },
    paidAt: row.ptime,
    usableUntil: row.expires_at,
    status: row.status,
  };
}
