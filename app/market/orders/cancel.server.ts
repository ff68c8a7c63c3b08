/**
 * Cancelling an order or some of its items, refunded through the gateway (spec sections 4, 9). The selected
 * lines are claimed first (active → cancelling) so two requests can never refund the same line twice; the
 * gateway is asked for exactly the amount `quoteRefund` computed; the order follows only on success. A claim
 * whose gateway answer never arrived is settled later by `reconcileCancellations` from the gateway's record.
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import { isGatewayError, type PayMethod, type RefundAccount } from "../../integrations/payments/gateway";
import type { Gateways } from "../../integrations/payments/index.server";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import { releaseCoupon } from "./coupons.server";
import { type OrderOwner, orderDetail } from "./history.server";
import { queueRefund } from "./mails.server";
import { quoteRefund } from "./pricing";

export interface CancelInput {
  /**
   * The member cancelling their own order (a representative also the direct purchases of the company's keys);
   * absent when an operator acts for the customer (`operator`) or a key-only buyer cancels (`keyLicenseId`).
   */
  userId?: number;
  /** A key-only buyer (the editor's licence, or a signed mail link) cancelling a direct purchase made with that key. */
  keyLicenseId?: number;
  orderId: number;
  /** Lines to cancel; empty means every active line. */
  lineIds: number[];
  reason: string;
  refundAccount?: RefundAccount;
  locale: Locale;
  now?: Date;
  /**
   * An operator cancelling on the customer's behalf (the console). Any customer's order; the member rules apply
   * unless `override` (the 7-day window and the download rules waived, see quoteRefund), and `reason` is required.
   * The audit line (before, after, the reason, whether the rules were overridden) is written in the transaction
   * that books the refund.
   */
  operator?: { actor: Actor; override: boolean };
}

/** What the audit log says about a refund an operator asked for or a reconciliation an operator ran. */
interface AuditOf {
  actor: Actor;
  action: string;
  reason: string | null;
  extra?: Record<string, unknown>;
}

/** The order's money and state as the audit log shows it before and after a change. */
const snapshot = (o: {
  status: string;
  paid_amount: number;
  cancel_amount: number;
  cancel_quantity: number;
  refund_deduction: number;
}) => ({
  status: o.status,
  paid: o.paid_amount,
  cancelled: o.cancel_amount,
  cancelledLines: o.cancel_quantity,
  deduction: o.refund_deduction,
});

export async function cancelOrder(db: DB, gateways: Gateways, input: CancelInput) {
  const now = input.now ?? new Date();
  const operator = input.operator;
  if (!operator && input.userId === undefined && input.keyLicenseId === undefined)
    throw new MarketError("UNAUTHORIZED", 401, "Sign in first");
  if (operator && !input.reason.trim()) throw new MarketError("REASON_REQUIRED", 400, "A reason is required");
  const owner: OrderOwner | "console" = operator
    ? "console"
    : input.userId !== undefined
      ? { userId: input.userId }
      : { keyLicenseId: input.keyLicenseId as number };
  const detail = await orderDetail(db, owner, input.orderId, input.locale, now, {
    override: operator?.override,
  });
  if (!detail) throw new MarketError("ORDER_NOT_FOUND", 404, "No such order");
  const order = await db.selectFrom("orders").selectAll().where("id", "=", detail.id).executeTakeFirstOrThrow();
  const gateway = order.gateway ? gateways.byName(order.gateway) : null;
  if (!gateway || !order.gateway_payment_id) throw new MarketError("GATEWAY_UNAVAILABLE", 502, "The payment service is not available");
  // Another cancellation of this order has not had its answer yet (or was interrupted and waits for
  // reconciliation): what is left to refund is not known until it has, so the member tries again later.
  if (detail.lines.some((l) => l.status === "cancelling")) throw new MarketError("REFUND_GATEWAY", 409, "cancellation_in_progress");
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
    override: operator?.override,
  });
  if (!quote.ok) throw new MarketError(`REFUND_${quote.reason.toUpperCase()}`, 409, quote.reason);
  if (method === "vbank" && !input.refundAccount) throw new MarketError("REFUND_ACCOUNT_REQUIRED", 400, "Enter the account for the refund");

  // The lines are claimed (active → cancelling) with the refund request written in one transaction: every claimed
  // line has a refund row saying when and for how much, which reconciliation reads after a crash.
  const at = now.toISOString();
  const refund = await db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("order_items")
      .set({ status: "cancelling" })
      .where("order_id", "=", order.id)
      .where("id", "in", quote.lineIds)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== quote.lineIds.length)
      throw new MarketError("REFUND_ALREADY_CANCELLED", 409, "already_cancelled");
    const previous = await trx
      .selectFrom("refunds")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    const requestId = `${order.order_no}-R${Number(previous.n) + 1}`;
    const row = await trx
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
    return { id: row.id, requestId };
  });

  let cancellation: Awaited<ReturnType<typeof gateway.cancel>>;
  try {
    cancellation = await gateway.cancel(order.gateway_payment_id, {
      reason: input.reason,
      // A full cancel without deduction asks for everything left; anything else names its amount.
      amount: quote.full && quote.deduction === 0 ? undefined : quote.amount,
      currentCancellableAmount: order.paid_amount - order.cancel_amount,
      refundAccount: input.refundAccount,
      requestId: refund.requestId,
    });
  } catch (error) {
    // The gateway said no: the lines go back. No answer (or one we cannot read): the refund may have been made,
    // so the lines stay claimed until reconciliation reads the gateway's record (reconcileCancellations).
    if (!outcomeUnknown(error)) await releaseClaim(db, refund.id, null);
    // The operator's request stands unanswered: the log says so (reconciliation books or releases it later).
    else if (operator)
      await recordAudit(db, operator.actor, {
        action: "order.refund_unanswered",
        targetType: "order",
        targetId: order.id,
        before: snapshot(order),
        after: { refund: refund.requestId, amount: quote.amount, lines: quote.lineIds, status: "requested" },
        reason: input.reason,
      });
    if (isGatewayError(error)) throw new MarketError("REFUND_GATEWAY", 502, error.code);
    throw error;
  }
  if (cancellation.status === "failed") {
    await releaseClaim(db, refund.id, cancellation.cancellationId);
    throw new MarketError("REFUND_GATEWAY", 502, "failed");
  }
  await bookRefund(
    db,
    refund.id,
    { status: cancellation.status, cancellationId: cancellation.cancellationId },
    at,
    operator ? { actor: operator.actor, action: "order.refund", reason: input.reason, extra: { override: operator.override } } : undefined,
  );
  return { refunded: quote.amount, deduction: quote.deduction, lineIds: quote.lineIds, full: quote.full };
}

/**
 * How long a cancellation may be under way before reconciliation treats it as interrupted: far beyond the
 * gateways' own time limits (PortOne 10 s, PayPal 15 s), so a slow answer is never overtaken.
 */
export const CANCEL_GRACE_MS = 10 * 60_000;

/** Gateway failures after which the refund may or may not have been made: no answer, or an answer not understood. */
const outcomeUnknown = (error: unknown) => !isGatewayError(error) || error.code === "NETWORK" || error.code === "INVALID_RESPONSE";

const lineIdsOf = (itemIds: string) => itemIds.split(",").map(Number).filter(Number.isInteger);

/**
 * The bookkeeping of a refund the gateway made, exactly once (whoever moves the refund row out of its open
 * state books it: the request that got the gateway's answer, or reconciliation): each line's share of the refund
 * (its total, the deduction taken proportionally, the last line the rest), the lines' passes unusable, the
 * order's totals and status; an order cancelled whole gives its coupon back.
 */
async function bookRefund(
  db: DB,
  refundId: number,
  outcome: { status: "succeeded" | "requested"; cancellationId: string | null },
  at: string,
  audit?: AuditOf,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("refunds")
      .set({ status: outcome.status, gateway_cancellation_id: outcome.cancellationId })
      .where("id", "=", refundId)
      .where("status", "=", "requested")
      .where("gateway_cancellation_id", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const refund = await trx.selectFrom("refunds").selectAll().where("id", "=", refundId).executeTakeFirstOrThrow();
    const ids = lineIdsOf(refund.item_ids);
    const lines = await trx
      .selectFrom("order_items")
      .select(["id", "unit_price", "discount", "vat"])
      .where("order_id", "=", refund.order_id)
      .where("id", "in", ids)
      .orderBy("id")
      .execute();
    let left = refund.amount;
    for (const [i, line] of lines.entries()) {
      const total = line.unit_price - line.discount + line.vat;
      const share = i === lines.length - 1 ? left : Math.min(left, Math.round((total * refund.amount) / refund.gross));
      left -= share;
      await trx
        .updateTable("order_items")
        .set({ status: "cancelled", cancelled_at: at, refund_amount: share })
        .where("id", "=", line.id)
        .execute();
    }
    await trx.updateTable("passes").set({ status: "unavailable" }).where("order_item_id", "in", ids).execute();
    const active = await trx
      .selectFrom("order_items")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("order_id", "=", refund.order_id)
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    const whole = Number(active.n) === 0;
    const before = audit ? await trx.selectFrom("orders").selectAll().where("id", "=", refund.order_id).executeTakeFirstOrThrow() : null;
    await trx
      .updateTable("orders")
      .set((eb) => ({
        status: whole ? "cancelled" : "partially_cancelled",
        cancel_quantity: eb("cancel_quantity", "+", ids.length),
        cancel_amount: eb("cancel_amount", "+", refund.amount),
        refund_deduction: eb("refund_deduction", "+", refund.deduction),
        updated_at: at,
      }))
      .where("id", "=", refund.order_id)
      .execute();
    if (whole) await releaseCoupon(trx, refund.order_id);
    const order = await trx.selectFrom("orders").selectAll().where("id", "=", refund.order_id).executeTakeFirstOrThrow();
    await queueRefund(trx, order, { amount: refund.amount, deduction: refund.deduction }, new Date(at));
    if (audit && before)
      await recordAudit(
        trx,
        audit.actor,
        {
          action: audit.action,
          targetType: "order",
          targetId: order.id,
          before: snapshot(before),
          after: {
            ...snapshot(order),
            refund: { request: refund.request_id, lines: ids, gross: refund.gross, deduction: refund.deduction, amount: refund.amount },
            ...audit.extra,
          },
          reason: audit.reason,
        },
        new Date(at),
      );
    return true;
  });
}

/** A refund that was not made: the request is closed as failed and its lines are active again (exactly once). */
async function releaseClaim(db: DB, refundId: number, cancellationId: string | null, audit?: AuditOf): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const closed = await trx
      .updateTable("refunds")
      .set({ status: "failed", gateway_cancellation_id: cancellationId })
      .where("id", "=", refundId)
      .where("status", "=", "requested")
      .where("gateway_cancellation_id", "is", null)
      .returning(["item_ids", "order_id", "request_id", "amount"])
      .executeTakeFirst();
    if (!closed) return false;
    await trx
      .updateTable("order_items")
      .set({ status: "active" })
      .where("id", "in", lineIdsOf(closed.item_ids))
      .where("status", "=", "cancelling")
      .execute();
    if (audit)
      await recordAudit(trx, audit.actor, {
        action: audit.action,
        targetType: "order",
        targetId: closed.order_id,
        before: { refund: closed.request_id, amount: closed.amount, status: "requested" },
        after: { refund: closed.request_id, status: "failed", lines: "active" },
        reason: audit.reason,
      });
    return true;
  });
}

/**
 * Repairs cancellations interrupted half-way (a crash, or no answer from the gateway): refund requests still open
 * after the grace period, their lines claimed. The gateway's record decides, order by order: what it refunded
 * beyond what the store booked is exactly the open requests' total → they are booked; nothing → they are closed
 * and their lines are active again (the member may ask again); anything else is left for a person (unresolved).
 * An order with a cancellation still within its grace period waits for the next run.
 */
export async function reconcileCancellations(
  db: DB,
  gateways: Gateways,
  now = new Date(),
  graceMs = CANCEL_GRACE_MS,
): Promise<{ repaired: number; unresolved: number }> {
  const before = new Date(now.getTime() - graceMs).toISOString();
  const stale = await db
    .selectFrom("refunds")
    .select("order_id")
    .distinct()
    .where("status", "=", "requested")
    .where("gateway_cancellation_id", "is", null)
    .where("created_at", "<", before)
    .orderBy("order_id")
    .limit(100)
    .execute();
  let repaired = 0;
  let unresolved = 0;
  for (const { order_id } of stale) {
    const one = await reconcileOrderCancellations(db, gateways, order_id, now, graceMs);
    repaired += one.repaired;
    unresolved += one.unresolved;
  }
  return { repaired, unresolved };
}

/**
 * One order's interrupted cancellations (see reconcileCancellations): its open refund requests older than the
 * grace period, decided from the gateway's record. An operator's run (`audit`) writes each repair's audit line in
 * the repair's transaction. `waiting`: a request still within its grace period (nothing done).
 */
export async function reconcileOrderCancellations(
  db: DB,
  gateways: Gateways,
  orderId: number,
  now = new Date(),
  graceMs = CANCEL_GRACE_MS,
  audit?: AuditOf,
): Promise<{ repaired: number; unresolved: number; waiting: boolean }> {
  const before = new Date(now.getTime() - graceMs).toISOString();
  const at = now.toISOString();
  const open = await db
    .selectFrom("refunds")
    .select(["id", "amount", "created_at"])
    .where("order_id", "=", orderId)
    .where("status", "=", "requested")
    .where("gateway_cancellation_id", "is", null)
    .orderBy("id")
    .execute();
  if (!open.length) return { repaired: 0, unresolved: 0, waiting: false };
  if (open.some((r) => r.created_at >= before)) return { repaired: 0, unresolved: 0, waiting: true };
  const order = await db
    .selectFrom("orders")
    .select(["gateway", "gateway_payment_id", "cancel_amount"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  const gateway = order.gateway ? gateways.byName(order.gateway) : null;
  const payment = gateway && order.gateway_payment_id ? await gateway.getPayment(order.gateway_payment_id).catch(() => null) : null;
  if (!payment) return { repaired: 0, unresolved: open.length, waiting: false };
  // What the gateway refunded that the store has not booked.
  const unbooked = payment.amount.cancelled - order.cancel_amount;
  const requested = open.reduce((n, r) => n + r.amount, 0);
  let repaired = 0;
  if (unbooked === 0) {
    for (const r of open) if (await releaseClaim(db, r.id, null, audit)) repaired++;
  } else if (unbooked === requested) {
    for (const r of open) if (await bookRefund(db, r.id, { status: "succeeded", cancellationId: null }, at, audit)) repaired++;
  } else return { repaired: 0, unresolved: open.length, waiting: false };
  return { repaired, unresolved: 0, waiting: false };
}
