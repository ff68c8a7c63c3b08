/**
 * Cancelling an order or some of its items, refunded through the gateway (spec sections 4, 9). The selected
 * lines are claimed first (active → cancelling) so two requests can never refund the same line twice; the
 * gateway is asked for exactly the amount `quoteRefund` computed; the order follows only on success.
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { isGatewayError, type PayMethod, type RefundAccount } from "../../integrations/payments/gateway";
import type { Gateways } from "../../integrations/payments/index.server";
import { MarketError } from "../errors";
import { releaseCoupon } from "./coupons.server";
import { orderDetail } from "./history.server";
import { quoteRefund } from "./pricing";

export interface CancelInput {
  userId: number;
  orderId: number;
  /** Lines to cancel; empty means every active line. */
  lineIds: number[];
  reason: string;
  refundAccount?: RefundAccount;
  locale: Locale;
  now?: Date;
}

export async function cancelOrder(db: DB, gateways: Gateways, input: CancelInput) {
  const now = input.now ?? new Date();
  const detail = await orderDetail(db, { userId: input.userId }, input.orderId, input.locale, now);
  if (!detail) throw new MarketError("ORDER_NOT_FOUND", 404, "No such order");
  const order = await db.selectFrom("orders").selectAll().where("id", "=", detail.id).executeTakeFirstOrThrow();
  const gateway = order.gateway ? gateways.byName(order.gateway) : null;
  if (!gateway || !order.gateway_payment_id) throw new MarketError("GATEWAY_UNAVAILABLE", 502, "The payment service is not available");
  const selected = input.lineIds.length ? input.lineIds : detail.lines.filter((l) => l.status === "active").map((l) => l.id);
  const method = (order.method ?? "card") as PayMethod;
  const quote = quoteRefund({
    method,
    paidAt: order.ptime,
    now,
    lines: detail.lines.map((l) => ({ id: l.id, total: l.total, status: l.status === "active" ? "active" : "cancelled", used: l.used })),
    selected,
    paid: order.paid_amount,
    refunded: order.cancel_amount + order.refund_deduction,
    benefitDownloaded: detail.refusal === "benefit_downloaded",
  });
  if (!quote.ok) throw new MarketError(`REFUND_${quote.reason.toUpperCase()}`, 409, quote.reason);
  if (method === "vbank" && !input.refundAccount) throw new MarketError("REFUND_ACCOUNT_REQUIRED", 400, "Enter the account for the refund");

  const claimed = await db
    .updateTable("order_items")
    .set({ status: "cancelling" })
    .where("order_id", "=", order.id)
    .where("id", "in", quote.lineIds)
    .where("status", "=", "active")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== quote.lineIds.length) {
    await db
      .updateTable("order_items")
      .set({ status: "active" })
      .where("id", "in", quote.lineIds)
      .where("status", "=", "cancelling")
      .execute();
    throw new MarketError("REFUND_ALREADY_CANCELLED", 409, "already_cancelled");
  }
  const previous = await db
    .selectFrom("refunds")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("order_id", "=", order.id)
    .executeTakeFirstOrThrow();
  const requestId = `${order.order_no}-R${Number(previous.n) + 1}`;
  const at = now.toISOString();
  const refund = await db
    .insertInto("refunds")
    .values({
      order_id: order.id,
      request_id: requestId,
      item_ids: quote.lineIds.join(","),
      gross: quote.gross,
      deduction: quote.deduction,
      amount: quote.amount,
      status: "requested",
      reason: input.reason,
      created_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();

  let cancellation: Awaited<ReturnType<typeof gateway.cancel>>;
  try {
    cancellation = await gateway.cancel(order.gateway_payment_id, {
      reason: input.reason,
      // A full cancel without deduction asks for everything left; anything else names its amount.
      amount: quote.full && quote.deduction === 0 ? undefined : quote.amount,
      currentCancellableAmount: order.paid_amount - order.cancel_amount,
      refundAccount: input.refundAccount,
      requestId,
    });
  } catch (error) {
    await db
      .updateTable("order_items")
      .set({ status: "active" })
      .where("id", "in", quote.lineIds)
      .where("status", "=", "cancelling")
      .execute();
    await db.updateTable("refunds").set({ status: "failed" }).where("id", "=", refund.id).execute();
    if (isGatewayError(error)) throw new MarketError("REFUND_GATEWAY", 502, error.code);
    throw error;
  }
  if (cancellation.status === "failed") {
    await db
      .updateTable("order_items")
      .set({ status: "active" })
      .where("id", "in", quote.lineIds)
      .where("status", "=", "cancelling")
      .execute();
    await db
      .updateTable("refunds")
      .set({ status: "failed", gateway_cancellation_id: cancellation.cancellationId })
      .where("id", "=", refund.id)
      .execute();
    throw new MarketError("REFUND_GATEWAY", 502, "failed");
  }

  // Each line's share of the refund: its total, the deduction taken proportionally, the last line the rest.
  const lines = detail.lines.filter((l) => quote.lineIds.includes(l.id));
  let left = quote.amount;
  await db.transaction().execute(async (trx) => {
    for (const [i, line] of lines.entries()) {
      const share = i === lines.length - 1 ? left : Math.min(left, Math.round((line.total * quote.amount) / quote.gross));
      left -= share;
      await trx
        .updateTable("order_items")
        .set({ status: "cancelled", cancelled_at: at, refund_amount: share })
        .where("id", "=", line.id)
        .execute();
    }
    await trx.updateTable("passes").set({ status: "unavailable" }).where("order_item_id", "in", quote.lineIds).execute();
    const remaining = detail.lines.filter((l) => l.status === "active" && !quote.lineIds.includes(l.id)).length;
    await trx
      .updateTable("orders")
      .set((eb) => ({
        status: remaining === 0 ? "cancelled" : "partially_cancelled",
        cancel_quantity: eb("cancel_quantity", "+", quote.lineIds.length),
        cancel_amount: eb("cancel_amount", "+", quote.amount),
        refund_deduction: eb("refund_deduction", "+", quote.deduction),
        updated_at: at,
      }))
      .where("id", "=", order.id)
      .execute();
    await trx
      .updateTable("refunds")
      .set({
        status: cancellation.status === "succeeded" ? "succeeded" : "requested",
        gateway_cancellation_id: cancellation.cancellationId,
      })
      .where("id", "=", refund.id)
      .execute();
  });
  // An order cancelled whole gives its coupon back.
  if (quote.full) await releaseCoupon(db, order.id);
  return { refunded: quote.amount, deduction: quote.deduction, lineIds: quote.lineIds, full: quote.full };
}
