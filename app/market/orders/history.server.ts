/** A member's payments and passes, for /mypage/pay, /mypage/passes and the users/orders API. */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import type { PayMethod } from "../../integrations/payments/gateway";
import { seoulText } from "../../utils/dates";
import { formatMoney } from "../money";
import { passGroupOf } from "../pass-groups";
import { type PassState, passState } from "../pass-status";
import { ORDER_HISTORY_YEARS, USE_PERIOD_DAYS } from "../rules";
import { contentsName, orderContents } from "./order-names.server";
import { quoteRefund } from "./pricing";

/**
 * Whose orders: a signed-in member's, an editor licence's (licence-key callers, the embedded pages, every order
 * made for the licence), or a key-only buyer's (`keyLicenseId`: the direct purchases made with that key and no
 * member, what the editor's webview and the signed mail link may cancel). A member's orders include the direct
 * purchases made with the business keys the member represents (licences owner_kind 'b2bg' of the member).
 */
export type OrderOwner = { userId: number } | { licenseId: number } | { keyLicenseId: number };

const ownedBy = <Q extends { where: (...args: any[]) => Q }>(q: Q, owner: OrderOwner, table: "orders" | "passes"): Q => {
  if ("licenseId" in owner) return q.where(`${table}.license_id`, "=", owner.licenseId);
  if ("keyLicenseId" in owner) {
    const keyed = q.where(`${table}.license_id`, "=", owner.keyLicenseId).where(`${table}.user_id`, "is", null);
    return table === "orders" ? keyed.where("orders.purchase_category", "=", "direct") : keyed;
  }
  if (table === "passes") return q.where("passes.user_id", "=", owner.userId);
  // The representative's own orders and the direct purchases made with the company's keys.
  return q.where((eb: any) =>
    eb.or([
      eb("orders.user_id", "=", owner.userId),
      eb.and([
        eb("orders.purchase_category", "=", "direct"),
        eb("orders.user_id", "is", null),
        eb(
          "orders.license_id",
          "in",
          eb
            .selectFrom("licenses")
            .select("licenses.id")
            .where("licenses.owner_kind", "=", "b2bg")
            .where("licenses.user_id", "=", owner.userId),
        ),
      ]),
    ]),
  );
};

/** Orders a member sees: placed and not abandoned (a pending or failed attempt is not a payment). */
const VISIBLE = ["waiting", "complete", "cancelled", "partially_cancelled"];

export interface OrderRow {
  id: number;
  orderNo: string;
  paidAt: string | null;
  createdAt: string;
  name: string;
  status: string;
  method: string | null;
  currency: "KRW" | "USD";
  total: number;
  quantity: number;
  purchaseCategory: string;
}

/** The oldest payment time that can be looked up: 3 years back (spec section 5). */
export const historyFloor = (now: Date) => {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - ORDER_HISTORY_YEARS);
  return d.toISOString();
};

export async function listOrders(
  db: DB,
  owner: OrderOwner,
  locale: Locale,
  filter: { from?: string; to?: string; offset?: number; limit?: number } = {},
  now = new Date(),
): Promise<{ list: OrderRow[]; total_count: number; floor: string }> {
  const floor = historyFloor(now);
  const from = filter.from && filter.from > floor ? filter.from : floor;
  let q = ownedBy(db.selectFrom("orders"), owner, "orders")
    .where("status", "in", VISIBLE)
    .where((eb) => eb(eb.fn.coalesce("ptime", "created_at"), ">=", from));
  if (filter.to) q = q.where((eb) => eb(eb.fn.coalesce("ptime", "created_at"), "<", filter.to as string));
  const [rows, count] = await Promise.all([
    q
      .select(["id", "order_no", "ptime", "created_at", "status", "method", "currency", "total", "purchase_category"])
      .select((eb) =>
        eb
          .selectFrom("order_items")
          .select(eb.fn.countAll<number>().as("n"))
          .whereRef("order_items.order_id", "=", "orders.id")
          .as("quantity"),
      )
      .orderBy((eb) => eb.fn.coalesce("ptime", "created_at"), "desc")
      .orderBy("id", "desc")
      .offset(filter.offset ?? 0)
      .limit(filter.limit ?? 20)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const names = await orderContents(
    db,
    rows.map((r) => r.id),
    locale,
  );
  return {
    floor,
    total_count: Number(count.n),
    list: rows.map((r) => ({
      id: r.id,
      orderNo: r.order_no,
      paidAt: r.ptime,
      createdAt: r.created_at,
      name: names.get(r.id) || r.order_no,
      status: r.status,
      method: r.method,
      currency: r.currency as "KRW" | "USD",
      total: r.total,
      quantity: Number(r.quantity ?? 0),
      purchaseCategory: r.purchase_category,
    })),
  };
}

export const HISTORY_PAGE_SIZE = 20;
const day = /^\d{4}-\d{2}-\d{2}$/;

export interface PaymentHistoryPage {
  /** Rows with date, time and amount spelled on the server (Node's ICU and the browser's can differ). */
  rows: { id: number; orderNo: string; name: string; quantity: number; status: string; category: string; date: string; total: string }[];
  totalCount: number;
  page: number;
  pages: number;
  from: string;
  to: string;
  /** The earliest day that can be looked up (3 years back, Asia/Seoul). */
  floorDay: string;
  /** The asked start was earlier than the 3-year limit. */
  clipped: boolean;
}

/**
 * One page of payment history for the storefront's /mypage/pay and the webview's /mypage/sw/pay: the
 * query's `from`/`to` are Asia/Seoul days (from 00:00 of `from` to the end of `to`), 20 to a page.
 */
export async function paymentHistoryPage(
  db: DB,
  owner: OrderOwner,
  params: URLSearchParams,
  locale: Locale,
  now = new Date(),
): Promise<PaymentHistoryPage> {
  // The filter never shows a day before the 3-year limit (issue 26.8): an earlier day asked for is shown, and looked
  // up, as the limit's day, with the 3-year note as an alert.
  const floorDay = new Date(Date.parse(historyFloor(now)) + 9 * 3_600_000).toISOString().slice(0, 10);
  const askedFrom = day.test(params.get("from") ?? "") ? (params.get("from") as string) : "";
  const askedTo = day.test(params.get("to") ?? "") ? (params.get("to") as string) : "";
  const fromDay = askedFrom && askedFrom < floorDay ? floorDay : askedFrom;
  const toDay = askedTo && askedTo < floorDay ? floorDay : askedTo;
  const asked = Number(params.get("page"));
  const page = Number.isInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
  const result = await listOrders(
    db,
    owner,
    locale,
    {
      from: fromDay ? new Date(`${fromDay}T00:00:00+09:00`).toISOString() : undefined,
      to: toDay ? new Date(Date.parse(`${toDay}T00:00:00+09:00`) + 86_400_000).toISOString() : undefined,
      offset: (page - 1) * HISTORY_PAGE_SIZE,
      limit: HISTORY_PAGE_SIZE,
    },
    now,
  );
  return {
    rows: result.list.map((o) => ({
      id: o.id,
      orderNo: o.orderNo,
      name: o.name,
      quantity: o.quantity,
      status: o.status,
      category: o.purchaseCategory,
      date: seoulText(o.paidAt ?? o.createdAt, locale),
      total: formatMoney(o.total, o.currency, locale),
    })),
    totalCount: result.total_count,
    page,
    pages: Math.max(1, Math.ceil(result.total_count / HISTORY_PAGE_SIZE)),
    from: fromDay,
    to: toDay,
    floorDay,
    clipped: Boolean((askedFrom && askedFrom < floorDay) || (askedTo && askedTo < floorDay)),
  };
}

export interface OrderDetailLine {
  id: number;
  itemType: string;
  title: string;
  code: string | null;
  passGroup: string | null;
  passCount: number | null;
  unit: number;
  discount: number;
  vat: number;
  total: number;
  status: string;
  used: boolean;
  /**
   * When the line's period of use ends: a content line's end (90 days from payment), a pass line's pass end (its
   * valid days from payment); null before payment and for a cancelled line (it has no period of use).
   */
  expiresAt: string | null;
  /** The line's period of use in days from payment: 90 for content, the pass's valid days for a pass. */
  validDays: number;
  refundAmount: number;
  /** Whether this line alone could be cancelled now, and if not why. */
  cancellable: boolean;
  refusal: string | null;
}

export interface OrderDetail extends OrderRow {
  amount: number;
  discount: number;
  vat: number;
  paidAmount: number;
  cancelQuantity: number;
  cancelAmount: number;
  refundDeduction: number;
  message: string | null;
  license: { id: number; serial: string; alias: string | null } | null;
  vbank: { bank: string; account: string; holder: string | null; dueAt: string | null } | null;
  pendingReason: string | null;
  lines: OrderDetailLine[];
  /** Whether the whole order (its active lines) could be cancelled now, and if not why. */
  cancellable: boolean;
  refusal: string | null;
}

/**
 * Benefit content downloaded since the order was paid blocks its cancellation (spec section 4): by the member, or
 * for a key-only buyer's order (no member) by the key.
 */
async function benefitDownloadedSince(db: DB, by: { userId: number } | { licenseId: number }, paidAt: string | null) {
  if (!paidAt) return false;
  const row = await db
    .selectFrom("downloads")
    .innerJoin("contents", "contents.id", "downloads.content_id")
    .select("downloads.id")
    .where((eb) => ("userId" in by ? eb("downloads.user_id", "=", by.userId) : eb("downloads.license_id", "=", by.licenseId)))
    .where("contents.price_type", "=", "benefit")
    .where("downloads.created_at", ">=", paidAt)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * One order with its lines and what can be cancelled. `owner` is whose order it must be; "console" is the operator
 * console, which reads any order in any state (a pending or failed attempt too).
 */
export async function orderDetail(
  db: DB,
  owner: OrderOwner | "console",
  orderId: number,
  locale: Locale,
  now = new Date(),
  options: { override?: boolean } = {},
): Promise<OrderDetail | null> {
  const base = db.selectFrom("orders").selectAll().where("id", "=", orderId);
  const o = await (owner === "console" ? base : ownedBy(base, owner, "orders").where("status", "in", VISIBLE)).executeTakeFirst();
  if (!o) return null;
  const [items, license, benefit] = await Promise.all([
    db
      .selectFrom("order_items")
      .leftJoin("contents", "contents.id", "order_items.content_id")
      .leftJoin("pass_prices", "pass_prices.id", "order_items.pass_price_id")
      .leftJoin("passes", "passes.order_item_id", "order_items.id")
      .select([
        "order_items.id",
        "order_items.item_type",
        "order_items.unit_price",
        "order_items.discount",
        "order_items.vat",
        "order_items.status",
        "order_items.first_downloaded_at",
        "order_items.expires_at",
        "order_items.refund_amount",
        "contents.code",
        "contents.title_ko",
        "contents.title_en",
        "pass_prices.contents_flag",
        "pass_prices.contents_type_sub",
        "pass_prices.contents_count",
        "pass_prices.valid_days",
        "passes.remaining",
        "passes.total as pass_total",
        "passes.expires_at as pass_expires_at",
      ])
      .where("order_items.order_id", "=", o.id)
      .orderBy("order_items.id")
      .execute(),
    o.license_id
      ? db.selectFrom("licenses").select(["id", "serial", "alias"]).where("id", "=", o.license_id).executeTakeFirst()
      : undefined,
    o.user_id !== null
      ? benefitDownloadedSince(db, { userId: o.user_id }, o.ptime)
      : o.license_id !== null
        ? benefitDownloadedSince(db, { licenseId: o.license_id }, o.ptime)
        : Promise.resolve(false),
  ]);
  const lines = items.map((i) => {
    const used = Boolean(i.first_downloaded_at) || (i.remaining !== null && i.pass_total !== null && i.remaining < i.pass_total);
    return {
      id: i.id,
      itemType: i.item_type ?? (i.contents_flag !== null ? "pass" : "video"),
      title: (locale === "ko" ? i.title_ko : i.title_en) ?? "",
      code: i.code,
      passGroup: i.contents_flag !== null ? passGroupOf(i.contents_flag, i.contents_type_sub) : null,
      passCount: i.contents_count,
      unit: i.unit_price,
      discount: i.discount,
      vat: i.vat,
      total: i.unit_price - i.discount + i.vat,
      status: i.status,
      used,
      expiresAt: i.status === "cancelled" ? null : i.contents_flag !== null ? i.pass_expires_at : i.expires_at,
      validDays: i.valid_days ?? USE_PERIOD_DAYS,
      refundAmount: i.refund_amount,
    };
  });
  const refundBase = {
    method: (o.method ?? "card") as PayMethod,
    paidAt: o.ptime,
    now,
    lines: lines.map((l) => ({
      id: l.id,
      total: l.total,
      status: l.status === "active" ? ("active" as const) : ("cancelled" as const),
      used: l.used,
    })),
    paid: o.paid_amount,
    refunded: o.cancel_amount + o.refund_deduction,
    benefitDownloaded: benefit,
    override: options.override,
  };
  const whole = quoteRefund({ ...refundBase, selected: lines.filter((l) => l.status === "active").map((l) => l.id) });
  return {
    id: o.id,
    orderNo: o.order_no,
    paidAt: o.ptime,
    createdAt: o.created_at,
    name: contentsName(lines, locale) || o.order_no,
    status: o.status,
    method: o.method,
    currency: o.currency as "KRW" | "USD",
    total: o.total,
    quantity: lines.length,
    purchaseCategory: o.purchase_category,
    amount: o.amount,
    discount: o.discount,
    vat: o.vat,
    paidAmount: o.paid_amount,
    cancelQuantity: o.cancel_quantity,
    cancelAmount: o.cancel_amount,
    refundDeduction: o.refund_deduction,
    message: o.message,
    license: license ?? null,
    vbank: o.vbank_account ? { bank: o.vbank_bank ?? "", account: o.vbank_account, holder: o.vbank_holder, dueAt: o.vbank_due_at } : null,
    pendingReason: o.pending_reason,
    lines: lines.map((l) => {
      const one = l.status === "active" ? quoteRefund({ ...refundBase, selected: [l.id] }) : null;
      return { ...l, cancellable: Boolean(one?.ok), refusal: one && !one.ok ? one.reason : null };
    }),
    cancellable: o.status !== "waiting" && whole.ok,
    refusal: whole.ok ? null : whole.reason,
  };
}

export interface PassRow {
  id: number;
  group: string;
  remaining: number;
  total: number;
  status: PassState;
  purchasedAt: string;
  expiresAt: string;
  validDays: number;
  license: string | null;
}

/**
 * The member's passes, each with its status from `passState` (pass-status.ts). Sort 1 (the spec's default):
 * newest purchase first; sort 2: the soonest expiry first. No status filter: all of them.
 */
export async function listPasses(
  db: DB,
  owner: OrderOwner,
  filter: { status?: PassState; sort?: 1 | 2 } = {},
  now = new Date(),
): Promise<PassRow[]> {
  const rows = await ownedBy(db.selectFrom("passes"), owner, "passes")
    .innerJoin("pass_prices", "pass_prices.id", "passes.pass_price_id")
    .leftJoin("licenses", "licenses.id", "passes.license_id")
    .select([
      "passes.id",
      "passes.remaining",
      "passes.total",
      "passes.status",
      "passes.purchased_at",
      "passes.expires_at",
      "pass_prices.contents_flag",
      "pass_prices.contents_type_sub",
      "pass_prices.valid_days",
      "licenses.serial",
      "licenses.alias",
    ])
    .orderBy("passes.purchased_at", "desc")
    .orderBy("passes.id", "desc")
    .execute();
  const list = rows.map((r) => {
    const status = passState({ status: r.status, remaining: r.remaining, expiresAt: r.expires_at }, now);
    return {
      id: r.id,
      group: passGroupOf(r.contents_flag, r.contents_type_sub),
      remaining: r.remaining,
      total: r.total,
      status,
      purchasedAt: r.purchased_at,
      expiresAt: r.expires_at,
      validDays: r.valid_days,
      license: r.alias ?? r.serial ?? null,
    };
  });
  if (filter.sort === 2) list.sort((a, b) => a.expiresAt.localeCompare(b.expiresAt) || a.id - b.id);
  return filter.status ? list.filter((p) => p.status === filter.status) : list;
}
