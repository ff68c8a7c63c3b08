/**
 * The mails an order's life sends (receipt, virtual-account instructions, automatic cancellation, refund), queued in
 * the transaction of the change: to the buyer's e-mail, in the member's language (a direct purchase by key: the
 * language of its currency).
 */
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../db/db.server";
import type { Database } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { seoulText } from "../../utils/dates";
import { MarketError } from "../errors";
import { storeLink } from "../mail/compose.server";
import { receiptMail, refundMail, vbankCancelledMail, vbankMail } from "../mail/messages.server";
import { queueMail } from "../mail/queue.server";
import { type Currency, formatMoney } from "../money";
import { admitMail, RateLimited } from "../rate-limits.server";
import { orderAccessMark, orderAccessPath, orderLinkExpiry } from "./order-access.server";
import { orderContentsOf } from "./order-names.server";

type Executor = Kysely<Database> | Transaction<Database>;

interface OrderRow {
  id: number;
  order_no: string;
  order_name: string | null;
  user_id: number | null;
  buyer_email: string | null;
  currency: string;
  total: number;
  license_id: number | null;
  purchase_category: string;
  ptime: string | null;
  /** The checkout's language (null for orders placed before migration 0030). */
  language: string | null;
}

/**
 * Where an order's mail leads: a member's My page, or for a key-only buyer's direct purchase (no member) the
 * signed, expiring link that opens that order for that key (order-access.server.ts); a purchase request paid by
 * the representative leads to the representative's My page.
 */
export function orderLinkPath(order: OrderRow, now: Date): string {
  if (order.user_id === null && order.license_id !== null && order.purchase_category === "direct")
    return `${storeLink(orderAccessPath(order.id, ""))}${orderAccessMark({
      orderId: order.id,
      licenseId: order.license_id,
      expires: orderLinkExpiry(order.ptime, now),
    })}`;
  return `/mypage/pay/${order.id}`;
}

/**
 * Who an order's mail goes to and in which language, decided when the mail is written: a member reads their own
 * language (their account's), whatever the page they paid on; a key-only buyer (no member) the language of the
 * checkout they bought in; an order from before the checkout's language was kept, the language of its currency.
 */
export async function recipient(db: Executor, order: OrderRow): Promise<{ to: string; locale: Locale } | null> {
  if (!order.buyer_email) return null;
  const user = order.user_id
    ? await db.selectFrom("users").select("language").where("id", "=", order.user_id).executeTakeFirst()
    : undefined;
  const spoken = user?.language ?? order.language ?? (order.currency === "USD" ? "en" : "ko");
  return { to: order.buyer_email, locale: spoken === "en" ? "en" : "ko" };
}

/** The order as a mail tells it: its contents named from its items in the recipient's language. */
const facts = async (db: Executor, order: OrderRow, locale: Locale, now: Date) => ({
  orderNo: order.order_no,
  orderId: order.id,
  link: orderLinkPath(order, now),
  name: await orderContentsOf(db, order, locale),
  total: formatMoney(order.total, order.currency as Currency, locale),
});

export async function queueReceipt(db: Executor, order: OrderRow & { method: string | null }, now: Date) {
  const r = await recipient(db, order);
  if (r)
    await queueMail(
      db,
      receiptMail(r.to, r.locale, await facts(db, order, r.locale, now), order.user_id !== null, order.method === "vbank"),
      now,
    );
}

export async function queueVbankInstructions(
  db: Executor,
  order: OrderRow & { vbank_due_at: string | null },
  vbank: { bank: string; account: string; holder: string },
  now: Date,
) {
  const r = await recipient(db, order);
  if (r)
    await queueMail(
      db,
      vbankMail(r.to, r.locale, {
        ...(await facts(db, order, r.locale, now)),
        ...vbank,
        due: seoulText(order.vbank_due_at, r.locale, "long"),
      }),
      now,
    );
}

export async function queueVbankCancelled(db: Executor, order: OrderRow & { vbank_due_at: string | null }, now: Date) {
  const r = await recipient(db, order);
  if (r)
    await queueMail(
      db,
      vbankCancelledMail(r.to, r.locale, {
        ...(await facts(db, order, r.locale, now)),
        due: seoulText(order.vbank_due_at, r.locale, "long"),
      }),
      now,
    );
}

export async function queueRefund(db: Executor, order: OrderRow, refund: { amount: number; deduction: number }, now: Date) {
  const r = await recipient(db, order);
  if (!r) return;
  const money = (n: number) => formatMoney(n, order.currency as Currency, r.locale);
  await queueMail(
    db,
    refundMail(r.to, r.locale, {
      ...(await facts(db, order, r.locale, now)),
      refund: money(refund.amount),
      deduction: money(refund.deduction),
    }),
    now,
  );
}

/**
 * `POST mail/send` (spec section 7; docs/decisions.md): the buyer asks for an order's receipt again. Only a paid
 * order of the caller's own (a member's, or a licence's), to the e-mail it was bought with; limited like every mail.
 */
export async function resendReceipt(
  db: DB,
  owner: { userId: number } | { licenseId: number } | { keyLicenseId: number },
  orderId: number,
  ip: string,
  now = new Date(),
): Promise<{ to: string }> {
  let q = db
    .selectFrom("orders")
    .selectAll()
    .where("id", "=", orderId)
    .where("status", "in", ["complete", "partially_cancelled", "cancelled"]);
  q =
    "userId" in owner
      ? q.where("user_id", "=", owner.userId)
      : "licenseId" in owner
        ? q.where("license_id", "=", owner.licenseId)
        : q.where("license_id", "=", owner.keyLicenseId).where("user_id", "is", null);
  const order = await q.executeTakeFirst();
  if (!order?.buyer_email) throw new MarketError("ORDER_NOT_FOUND", 404, "No such payment");
  const verdict = await admitMail(db, ip, { userId: order.user_id, email: order.buyer_email }, [order.buyer_email], now);
  if (!verdict.allowed) throw new RateLimited(verdict.retryAfterMs);
  await db.transaction().execute((trx) => queueReceipt(trx, order, now));
  return { to: order.buyer_email };
}
