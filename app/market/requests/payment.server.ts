/**
 * Paying purchase requests (spec sections 4 and 8): the representative pays one or several waiting requests of one
 * licence key in one order (purchase category "purchase request"); settlement claims the requests, so a request is
 * paid once however many sessions pay it at the same time.
 */
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../db/db.server";
import type { Database } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { saleUnit } from "../catalog/cards.server";
import { MarketError } from "../errors";
import { requestPaidMail } from "../mail/messages.server";
import { queueMail } from "../mail/queue.server";
import type { CheckoutLine, CheckoutQuote } from "../orders/checkout.server";
import { priceOrder } from "../orders/pricing";
import { USE_PERIOD_DAYS } from "../rules";
import { requestItemRows } from "./requests.server";
import { payableUnit, requestState } from "./rules";

export const REQUEST_PAID = "REQUEST_PAID"; // Payment is already completed for this request.
export const REQUEST_EXPIRED = "REQUEST_EXPIRED"; // The available payment period for this request has expired.

export interface RequestQuote extends CheckoutQuote {
  licenseId: number;
  requestIds: number[];
}

/**
 * The checkout of these requests for their representative: every request waiting (not paid, not expired), all for
 * one licence key and in the currency being paid; lines at the payable price (docs/decisions.md), an item asked for
 * twice charged once, discontinued items left out.
 */
export async function quoteRequests(
  db: DB,
  ownerUserId: number,
  requestIds: readonly number[],
  currency: "KRW" | "USD",
  locale: Locale,
  now = new Date(),
  /** Items the representative left out: the key already holds them (issue 24, point 3). */
  exclude: readonly number[] = [],
): Promise<RequestQuote> {
  const ids = [...new Set(requestIds)];
  if (!ids.length) throw new MarketError("REQUEST_NOT_FOUND", 404, "No such purchase request");
  const rows = await db
    .selectFrom("purchase_requests")
    .select(["id", "status", "expires_at", "license_id", "currency", "deleted_at"])
    .where("owner_user_id", "=", ownerUserId)
    .where("id", "in", ids)
    .execute();
  if (rows.length !== ids.length || rows.some((r) => r.deleted_at))
    throw new MarketError("REQUEST_NOT_FOUND", 404, "No such purchase request");
  for (const r of rows) {
    const state = requestState(r, now);
    if (state === "paid") throw new MarketError(REQUEST_PAID, 409, "Payment is already completed for this request.");
    if (state === "expired") throw new MarketError(REQUEST_EXPIRED, 409, "The available payment period for this request has expired.");
  }
  const licenseIds = new Set(rows.map((r) => r.license_id));
  if (licenseIds.size > 1) throw new MarketError("REQUEST_KEYS_DIFFER", 409, "Requests for different licence keys are paid separately.");
  if (rows.some((r) => r.currency !== currency))
    throw new MarketError("REQUEST_CURRENCY", 409, `This request is paid in ${rows[0].currency}.`);
  const left = new Set(exclude);
  const items = (await requestItemRows(db, ids)).filter((i) => !left.has(i.content_id));
  if (left.size && !items.length) throw new MarketError("CHECKOUT_EMPTY", 400, "Nothing to pay for");
  const byContent = new Map<number, CheckoutLine>();
  for (const i of items) {
    const current = saleUnit(i, currency);
    const unit = payableUnit(i.unit_price, {
      status: current === null ? "discontinued" : i.status,
      price_type: i.price_type,
      price: current ?? 0,
    });
    if (unit === null) continue;
    const seen = byContent.get(i.content_id);
    if (seen && seen.unit <= unit) continue;
    byContent.set(i.content_id, {
      kind: "content",
      refId: i.content_id,
      itemType: i.contents_type,
      code: i.code,
      title: locale === "ko" ? i.title_ko : i.title_en,
      image: i.poster_path,
      unit,
      validDays: USE_PERIOD_DAYS,
    });
  }
  const lines = [...byContent.values()];
  if (!lines.length) throw new MarketError("CONTENT_DISCONTINUED", 409, "This content has been discontinued");
  return {
    currency,
    lines,
    totals: priceOrder(lines.map((l) => ({ unit: l.unit }))),
    licenseId: rows[0].license_id,
    requestIds: ids,
  };
}

/** Raised inside settlement when another order paid one of this order's requests first (the order is refused). */
export class RequestClaimLost extends Error {
  constructor() {
    super("a purchase request of this order was paid by another order");
    this.name = "RequestClaimLost";
  }
}

/**
 * Marks the order's requests paid, in the settlement's transaction. Every request must still be waiting and have
 * been placed while payable; otherwise RequestClaimLost rolls the settlement back.
 */
export async function claimRequests(
  trx: Kysely<Database> | Transaction<Database>,
  order: { id: number; created_at: string },
  paidAt: string,
): Promise<void> {
  const links = await trx.selectFrom("order_requests").select("request_id").where("order_id", "=", order.id).execute();
  if (!links.length) return;
  const claimed = await trx
    .updateTable("purchase_requests")
    .set({ status: "paid", order_id: order.id, paid_at: paidAt })
    .where(
      "id",
      "in",
      links.map((l) => l.request_id),
    )
    .where("status", "=", "waiting")
    .where("expires_at", ">", order.created_at)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== links.length) throw new RequestClaimLost();
  // Each requester hears that their request was paid and the items are ready in the editor.
  const paid = await trx
    .selectFrom("purchase_requests")
    .select(["request_no", "request_email", "language"])
    .where(
      "id",
      "in",
      links.map((l) => l.request_id),
    )
    .execute();
  for (const r of paid)
    await queueMail(trx, requestPaidMail(r.request_email, r.language === "en" ? "en" : "ko", r.request_no), new Date(paidAt));
}
