/**
 * Orders: placing one (amounts computed here, never taken from the browser), and settling it from what the
 * gateway reports. Settling is a monotone state machine guarded by conditional updates, so the payer's return,
 * webhooks delivered late, twice or out of order, and a reconciliation pass can all call it safely: an order is
 * fulfilled exactly once, and only when the gateway says it was paid the order's amount in its currency.
 */
import { randomBytes } from "node:crypto";
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import {
  type GatewayPayment,
  isGatewayError,
  type PayMethod,
  type PaymentGateway,
  type PaymentRequest,
} from "../../integrations/payments/gateway";
import type { Gateways } from "../../integrations/payments/index.server";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import type { BusinessKey } from "../requests/lookup.server";
import { claimRequests, quoteRequests, RequestClaimLost } from "../requests/payment.server";
import { reconcileCancellations } from "./cancel.server";
import { restoreOrderToCart, takeOrderFromCart } from "./cart-lines.server";
import { type CheckoutItem, type CheckoutQuote, currencyOfMethod, quoteCheckout, resolvePurchaseLicense } from "./checkout.server";
import { holdsCoupon, releaseCoupon, reserveCoupon, usableCoupon } from "./coupons.server";
import { daysAfter, vbankDueAt } from "./deadlines";
import { queueReceipt, queueVbankInstructions } from "./mails.server";
import { contentsName, orderContentsOf } from "./order-names.server";

export type OrderStatus = "pending" | "waiting" | "complete" | "cancelled" | "partially_cancelled" | "failed";

/** A payment number people can read out: MKT-YYYYMMDD-XXXXXXXX. */
export function newOrderNo(now: Date): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  return `MKT-${day}-${randomBytes(5).toString("hex").toUpperCase().slice(0, 8)}`;
}

/**
 * What kind of purchase (spec section 3, purchase category): a member buying for one of their licences; a
 * representative paying purchase requests (the licence is the requester's key); a key-only user buying directly
 * with a business key and its licensing e-mail, without a login.
 */
export type Purchase =
  | { category: "member" }
  /** `exclude`: items left out because the key already holds them (issue 24, point 3). */
  | { category: "request"; requestIds: number[]; exclude?: number[] }
  | { category: "direct"; key: BusinessKey };

export interface PlaceOrderInput {
  /** The member paying (null for a direct purchase by key), and where the receipt goes. */
  buyer: { id: number | null; userType: number; email: string };
  /** Member purchases unless said otherwise. */
  purchase?: Purchase;
  items: CheckoutItem[];
  license: { licenseId?: number; serial?: string };
  method: PayMethod;
  locale: Locale;
  /** One per checkout: a second submit of the same checkout finds the same order. */
  idempotencyKey: string;
  /** The store's absolute origin, for the gateway's return, cancel and webhook addresses. */
  origin: string;
  /**
   * Where the payer comes back to, when not `origin` (test mode without PUBLIC_URL: the loopback host the visitor
   * opened the store on, utils/origin.server.ts); the webhook stays on `origin`.
   */
  returnOrigin?: string;
  /** A promotion coupon code (one per account). */
  coupon?: string;
  now?: Date;
}

export interface PlacedOrder {
  orderNo: string;
  checkout: Awaited<ReturnType<PaymentGateway["begin"]>>;
}

/** The gateway did not take the payment request: the payer sees the payment-error message and can retry. */
async function beginPayment(gateway: PaymentGateway, request: PaymentRequest) {
  try {
    return await gateway.begin(request);
  } catch (error) {
    if (isGatewayError(error)) throw new MarketError("GATEWAY_UNAVAILABLE", 502, error.code);
    throw error;
  }
}

/** Where the gateway sends the payer back and the store's notifications go. */
const addresses = (orderNo: string, gatewayName: string, origin: string, returnOrigin = origin) => ({
  returnUrl: `${returnOrigin}/pay/return?gateway=${gatewayName}`,
  cancelUrl: `${returnOrigin}/pay-cancel`,
  webhookUrl: `${origin}/webhooks/payments/${gatewayName}`,
  paymentId: orderNo,
});

interface PendingOrder {
  id: number;
  order_no: string;
  order_name: string | null;
  total: number;
  vat: number;
  currency: string;
  method: string | null;
  buyer_email: string | null;
  vbank_due_at: string | null;
}

/**
 * The payment request of an order already placed: the same amounts, addresses and deadline as the first time, the
 * contents named in the payer's language now.
 */
async function requestOf(
  db: DB,
  order: PendingOrder,
  gatewayName: string,
  origin: string,
  locale: Locale,
  returnOrigin = origin,
): Promise<PaymentRequest> {
  return {
    ...addresses(order.order_no, gatewayName, origin, returnOrigin),
    orderName: await orderContentsOf(db, order, locale),
    amount: order.total,
    vat: order.vat,
    currency: order.currency as "KRW" | "USD",
    method: (order.method ?? "card") as PayMethod,
    buyer: { email: order.buyer_email ?? "" },
    locale,
    vbankDueAt: order.vbank_due_at ?? undefined,
  };
}

/** A member's pending order, handed to its gateway again (the PortOne page asks for its browser-SDK parameters). */
export async function resumeCheckout(db: DB, gateways: Gateways, userId: number, orderNo: string, origin: string, locale: Locale) {
  const order = await db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).where("user_id", "=", userId).executeTakeFirst();
  if (!order) throw new MarketError("ORDER_NOT_FOUND", 404, "No such order");
  if (order.status !== "pending") throw new MarketError("ORDER_ALREADY_PLACED", 409, order.order_no);
  const gateway = order.gateway ? gateways.byName(order.gateway) : null;
  if (!gateway) throw new MarketError("GATEWAY_UNAVAILABLE", 502, "The payment service is not available");
  return beginPayment(gateway, await requestOf(db, order, gateway.name, origin, locale));
}

export async function placeOrder(db: DB, gateways: Gateways, input: PlaceOrderInput): Promise<PlacedOrder> {
  const gateway = gateways.forMethod(input.method);
  if (!gateway) throw new MarketError("METHOD_NOT_AVAILABLE", 400, "This payment method is not available");
  const now = input.now ?? new Date();
  const urls = (orderNo: string) => addresses(orderNo, gateway.name, input.origin, input.returnOrigin);

  const existing = await db
    .selectFrom("orders")
    .select(["id", "order_no", "status", "total", "vat", "currency", "method", "order_name", "buyer_email", "vbank_due_at", "user_id"])
    .where("idempotency_key", "=", input.idempotencyKey)
    .executeTakeFirst();
  if (existing?.status === "failed") {
    // A retry after a failed payment is a new attempt: the failed order keeps its record under another key.
    await db
      .updateTable("orders")
      .set({ idempotency_key: `${input.idempotencyKey}:failed:${existing.id}` })
      .where("id", "=", existing.id)
      .where("status", "=", "failed")
      .execute();
    return placeOrder(db, gateways, input);
  }
  if (existing?.status === "pending" && existing.method !== input.method && existing.user_id === input.buyer.id) {
    // The payer abandoned one method and chose another: the unpaid attempt is closed for good, so its payment
    // window can no longer charge this checkout (a late payment on it is refunded, see settlePayment).
    const superseded = await db
      .updateTable("orders")
      .set({
        status: "failed",
        failure_message: "superseded by another payment method",
        idempotency_key: `${input.idempotencyKey}:superseded:${existing.id}`,
        updated_at: now.toISOString(),
      })
      .where("id", "=", existing.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    // Only the attempt closed here gives its coupon back (one paid meanwhile keeps it).
    if (Number(superseded.numUpdatedRows) === 1) await releaseCoupon(db, existing.id);
    return placeOrder(db, gateways, input);
  }
  if (existing) {
    if (existing.user_id !== input.buyer.id) throw new MarketError("ORDER_NOT_FOUND", 404, "No such order");
    if (existing.status !== "pending" || existing.method !== input.method)
      throw new MarketError("ORDER_ALREADY_PLACED", 409, existing.order_no);
    // The same checkout submitted again (a double click, a retry after a network error): the same payment.
    return {
      orderNo: existing.order_no,
      checkout: await beginPayment(gateway, await requestOf(db, existing, gateway.name, input.origin, input.locale, input.returnOrigin)),
    };
  }

  const currency = currencyOfMethod(input.method);
  const purchase = input.purchase ?? { category: "member" };
  const buyerId = input.buyer.id;
  let quote: CheckoutQuote;
  let licenseId: number;
  let requestIds: number[] = [];
  let coupon: Awaited<ReturnType<typeof usableCoupon>> | null = null;
  if (purchase.category === "direct") {
    // A business key buys single items only (no passes), like its representative.
    quote = await quoteCheckout(db, { userType: 2 }, input.items, currency, input.locale);
    licenseId = purchase.key.licenseId;
  } else {
    if (buyerId === null) throw new MarketError("UNAUTHORIZED", 401, "Sign in first");
    if (purchase.category === "request") {
      const requested = await quoteRequests(db, buyerId, purchase.requestIds, currency, input.locale, now, purchase.exclude);
      quote = requested;
      licenseId = requested.licenseId;
      requestIds = requested.requestIds;
    } else {
      coupon = input.coupon ? await usableCoupon(db, buyerId, input.coupon, now) : null;
      quote = await quoteCheckout(db, input.buyer, input.items, currency, input.locale, coupon?.percent ?? 0);
      licenseId = (await resolvePurchaseLicense(db, buyerId, input.license, now)).id;
    }
  }
  if (quote.totals.total <= 0) throw new MarketError("CHECKOUT_EMPTY", 400, "Nothing to pay for");
  const orderNo = newOrderNo(now);
  const at = now.toISOString();
  // Kept with the order for the gateway's records; pages name an order from its items in the viewer's language.
  const name = contentsName(quote.lines, input.locale);
  const due = input.method === "vbank" ? vbankDueAt(now) : null;
  try {
    await db.transaction().execute(async (trx) => {
      const order = await trx
        .insertInto("orders")
        .values({
          order_no: orderNo,
          user_id: buyerId,
          license_id: licenseId,
          purchase_category: purchase.category,
          status: "pending",
          method: input.method,
          currency,
          amount: quote.totals.amount,
          discount: quote.totals.discount,
          vat: quote.totals.vat,
          total: quote.totals.total,
          cancel_quantity: 0,
          cancel_amount: 0,
          buyer_email: input.buyer.email,
          gateway: gateway.name,
          gateway_payment_id: orderNo,
          vbank_due_at: due,
          idempotency_key: input.idempotencyKey,
          order_name: name,
          coupon_code: coupon?.code ?? null,
          // The checkout's language: the mails of a key-only buyer (no member, no language of their own) use it.
          language: input.locale,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      // One coupon per account: reserved with the order; an unpaid earlier attempt is closed to give it up.
      if (coupon && buyerId !== null) await reserveCoupon(trx, buyerId, coupon.code, order.id, at);
      if (requestIds.length)
        await trx
          .insertInto("order_requests")
          .values(requestIds.map((request_id) => ({ order_id: order.id, request_id })))
          .execute();
      await trx
        .insertInto("order_items")
        .values(
          quote.lines.map((l, i) => ({
            order_id: order.id,
            content_id: l.kind === "content" ? l.refId : null,
            pass_price_id: l.kind === "pass" ? l.refId : null,
            item_type: l.itemType,
            quantity: 1,
            unit_price: l.unit,
            discount: quote.totals.lines[i].discount,
            vat: quote.totals.lines[i].vat,
            status: "active",
          })),
        )
        .execute();
    });
  } catch (error) {
    // Two submits of one checkout raced: the other one placed the order.
    const raced = await db.selectFrom("orders").select("id").where("idempotency_key", "=", input.idempotencyKey).executeTakeFirst();
    if (raced) return placeOrder(db, gateways, input);
    throw error;
  }
  const checkout = await beginPayment(gateway, {
    ...urls(orderNo),
    orderName: name,
    amount: quote.totals.total,
    vat: quote.totals.vat,
    currency,
    method: input.method,
    buyer: { email: input.buyer.email },
    locale: input.locale,
    vbankDueAt: due ?? undefined,
  });
  // Gateways that name payments themselves (PayPal's order id) are looked up by their id from now on.
  if (checkout.gatewayPaymentId !== orderNo)
    await db.updateTable("orders").set({ gateway_payment_id: checkout.gatewayPaymentId }).where("order_no", "=", orderNo).execute();
  return { orderNo, checkout };
}

export type SettleOutcome = "unknown" | OrderStatus;

/**
 * An operator settling an order by hand (the console's deposit confirmation and reconciliation): the line is
 * written in the transaction that moves the order; `written` tells the caller whether this call moved it.
 */
export interface SettleAudit {
  actor: Actor;
  action: string;
  reason?: string | null;
  written?: boolean;
}

async function orderOf(db: DB, gatewayName: string, gatewayPaymentId: string) {
  return db
    .selectFrom("orders")
    .selectAll()
    .where("gateway", "=", gatewayName)
    .where("gateway_payment_id", "=", gatewayPaymentId)
    .executeTakeFirst();
}

/** Who asks about an order: the signed-in member, and the editor licence the request names (either may be absent). */
export interface OrderAsker {
  userId: number | null;
  licenseId: number | null;
}

/**
 * Whether the asker bought the order behind this gateway payment: a member's order is its member's alone (the
 * licence it was bought for does not stand for them); an order placed without a member (with a licence key) is
 * that licence's. False for a payment no order knows.
 */
export async function isBuyerOfPayment(db: DB, gatewayName: string, gatewayPaymentId: string, asker: OrderAsker): Promise<boolean> {
  const order = await orderOf(db, gatewayName, gatewayPaymentId);
  if (!order) return false;
  if (order.user_id !== null) return asker.userId === order.user_id;
  return order.license_id !== null && asker.licenseId === order.license_id;
}

/**
 * Brings the order in step with the gateway's payment. Paid with the right amount and currency: fulfilled once
 * (items usable for 90 days, passes issued, cart lines removed). Paid a different amount: never fulfilled; the
 * order fails and the payment is refunded. Paid for an order priced with a coupon it no longer holds, or for an
 * order closed meanwhile: refused, the payment refunded. Virtual account issued: waiting for the deposit (closed
 * again when the order was closed meanwhile). Failed: failed.
 */
export async function settlePayment(
  db: DB,
  gateway: PaymentGateway,
  payment: GatewayPayment,
  now = new Date(),
  audit?: SettleAudit,
): Promise<SettleOutcome> {
  const order = await orderOf(db, gateway.name, payment.gatewayPaymentId);
  if (!order) return "unknown";
  const at = now.toISOString();
  const open: OrderStatus[] = ["pending", "waiting"];
  /** An operator's settlement: the audit line goes into the transaction that moved the order. */
  const audited = async (trx: DB, set: Record<string, unknown>) => {
    if (!audit) return;
    await recordAudit(
      trx,
      audit.actor,
      {
        action: audit.action,
        targetType: "order",
        targetId: order.id,
        before: { status: order.status, paid: order.paid_amount },
        after: {
          status: set.status ?? order.status,
          paid: set.paid_amount ?? order.paid_amount,
          ...(set.pending_reason !== undefined ? { pendingReason: set.pending_reason } : {}),
          gateway: { status: payment.status, paid: payment.amount.paid, cancelled: payment.amount.cancelled },
        },
        reason: audit.reason ?? null,
      },
      now,
    );
    audit.written = true;
  };
  const move = async (set: Record<string, unknown>, from: OrderStatus[] = open) =>
    db.transaction().execute(async (trx) => {
      const moved =
        Number(
          (
            await trx
              .updateTable("orders")
              .set({ ...set, updated_at: at })
              .where("id", "=", order.id)
              .where("status", "in", from)
              .executeTakeFirst()
          ).numUpdatedRows,
        ) === 1;
      if (moved) await audited(trx, set);
      return moved;
    });

  // The order as it stands now; an unpaid virtual-account order the expiry job removed meanwhile is cancelled.
  const statusNow = async (): Promise<OrderStatus> =>
    ((await db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirst())?.status ?? "cancelled") as OrderStatus;

  const paidish = payment.status === "paid" || payment.status === "partial_cancelled" || payment.status === "cancelled";
  // Money on an order that failed (declined, superseded by another attempt, amount mismatch) goes back.
  if (order.status === "failed" && paidish && payment.amount.paid > payment.amount.cancelled) {
    await gateway.cancel(payment.gatewayPaymentId, { reason: "The order this payment belongs to was closed" }).catch(() => {});
    return "failed";
  }
  if (paidish && payment.amount.paid > 0 && (payment.amount.paid !== order.total || payment.currency !== order.currency)) {
    if (await move({ status: "failed", failure_message: `amount mismatch: paid ${payment.currency} ${payment.amount.paid}` }))
      await releaseCoupon(db, order.id);
    // The money goes back whenever the gateway still holds some of it (again after a crash: cancelling twice
    // is refused by the gateway, not doubled).
    if (order.status !== "complete" && payment.amount.paid > payment.amount.cancelled)
      await gateway.cancel(payment.gatewayPaymentId, { reason: "Amount does not match the order" }).catch(() => {});
    return "failed";
  }

  if (payment.status === "paid") {
    const paidAt = payment.paidAt ?? at;
    await db
      .transaction()
      .execute(async (trx) => {
        // Priced with a coupon it no longer holds (another order holds it now): never fulfilled at the discount;
        // the order fails and the payment is refunded below. A checkout taking the coupon closes this order in
        // the same transaction as it moves the reservation, so the claim below cannot succeed after that either.
        if (order.coupon_code && !(await holdsCoupon(trx, order.id))) {
          const closed = await trx
            .updateTable("orders")
            .set({ status: "failed", failure_message: "coupon no longer reserved for this order", updated_at: at })
            .where("id", "=", order.id)
            .where("status", "in", open)
            .executeTakeFirst();
          if (Number(closed.numUpdatedRows) === 1) await audited(trx, { status: "failed" });
          return;
        }
        const claimed = await trx
          .updateTable("orders")
          .set({ status: "complete", ptime: paidAt, paid_amount: payment.amount.paid, pending_reason: null, updated_at: at })
          .where("id", "=", order.id)
          .where("status", "in", open)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) return;
        await audited(trx, { status: "complete", paid_amount: payment.amount.paid });
        // A purchase request is paid once: another order that paid it first makes this one fail (rolled back here).
        if (order.purchase_category === "request") await claimRequests(trx, order, paidAt);
        // The receipt: to the member, or for a direct purchase by key to its licensing e-mail.
        await queueReceipt(trx, order, new Date(paidAt));
        const items = await trx.selectFrom("order_items").selectAll().where("order_id", "=", order.id).execute();
        await trx
          .updateTable("order_items")
          .set({ expires_at: daysAfter(paidAt, 90) })
          .where("order_id", "=", order.id)
          .where("content_id", "is not", null)
          .execute();
        const passLines = items.filter((i) => i.pass_price_id !== null);
        if (passLines.length) {
          const prices = await trx
            .selectFrom("pass_prices")
            .selectAll()
            .where(
              "id",
              "in",
              passLines.map((p) => p.pass_price_id as number),
            )
            .execute();
          for (const line of passLines) {
            const price = prices.find((p) => p.id === line.pass_price_id);
            if (!price || order.user_id === null) continue;
            await trx
              .insertInto("passes")
              .values({
                user_id: order.user_id,
                license_id: order.license_id,
                order_item_id: line.id,
                pass_price_id: price.id,
                remaining: price.contents_count,
                total: price.contents_count,
                status: "available",
                purchased_at: paidAt,
                expires_at: daysAfter(paidAt, price.valid_days),
              })
              .execute();
          }
        }
        // Paid contents and passes leave the member's cart (a virtual-account order's left it when issued).
        await takeOrderFromCart(trx, order);
        const contentIds = items.flatMap((i) => (i.content_id === null ? [] : [i.content_id]));
        if (contentIds.length) {
          await trx
            .updateTable("contents")
            .set((eb) => ({ sales_count: eb("sales_count", "+", 1) }))
            .where("id", "in", contentIds)
            .execute();
        }
      })
      .catch(async (error) => {
        if (!(error instanceof RequestClaimLost)) throw error;
        // The transaction (and its audit line) was rolled back.
        if (audit) audit.written = false;
        await move({ status: "failed", failure_message: "purchase request already paid by another order" });
      });
    const after = { status: await statusNow() };
    // Refused above, or closed (superseded, declined) between reading the order and claiming it: the money goes back.
    if (after.status === "failed" && payment.amount.paid > payment.amount.cancelled)
      await gateway.cancel(payment.gatewayPaymentId, { reason: "The order this payment belongs to was closed" }).catch(() => {});
    return after.status as OrderStatus;
  }
  if (payment.status === "vbank_issued") {
    const vbank = { bank: payment.vbank?.bank ?? "", account: payment.vbank?.accountNumber ?? "", holder: payment.vbank?.holder ?? "" };
    // Issued: the order waits for the deposit, and the payer gets the account and the deadline by mail.
    const issued = await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable("orders")
        .set({
          status: "waiting",
          vbank_bank: vbank.bank || null,
          vbank_account: vbank.account || null,
          vbank_holder: vbank.holder || null,
          updated_at: at,
        })
        .where("id", "=", order.id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      await audited(trx, { status: "waiting" });
      // Placed for good: its items leave the cart now, as a paid order's do (they come back if it expires unpaid).
      await takeOrderFromCart(trx, order);
      await queueVbankInstructions(trx, order, vbank, now);
      return true;
    });
    // A virtual account issued for an attempt already closed (superseded) is closed too: no deposit can land on it.
    if (!issued && (await statusNow()) === "failed") await gateway.closeVirtualAccount(payment.gatewayPaymentId).catch(() => {});
  } else if (payment.status === "failed") {
    if (await move({ status: "failed", failure_message: payment.failure?.reason ?? "failed" }, ["pending"]))
      await releaseCoupon(db, order.id);
  } else if (payment.status === "pending") {
    await move({ pending_reason: payment.pendingReason ?? "pending" }, ["pending"]);
  } else if (payment.status === "cancelled" && payment.amount.paid === 0) {
    // A virtual account closed before any deposit: its items go back to the cart.
    const wasWaiting = (await statusNow()) === "waiting";
    if ((await move({ status: "cancelled" })) && wasWaiting) await restoreOrderToCart(db, order, now);
  }
  return statusNow();
}

/** The payer came back from the gateway: confirm with the gateway (PayPal captures here) and settle. */
export async function confirmReturn(db: DB, gateways: Gateways, gatewayName: string, params: URLSearchParams, now = new Date()) {
  const gateway = gateways.byName(gatewayName);
  const id = params.get("paymentId") ?? params.get("token");
  if (!gateway || !id) throw new MarketError("ORDER_NOT_FOUND", 404, "No such payment");
  const order = await orderOf(db, gateway.name, id);
  if (!order) throw new MarketError("ORDER_NOT_FOUND", 404, "No such payment");
  const payment = await gateway.confirm(id, params);
  const status = await settlePayment(db, gateway, payment, now);
  return { orderNo: order.order_no, status, userId: order.user_id };
}

/**
 * A verified webhook: an event seen before (same event id) is acknowledged and ignored; otherwise the payment is
 * read back from the gateway and settled, and only then is the event recorded. Settling is idempotent, so a
 * crash between the two (or two deliveries racing) costs a second read, never a lost or doubled settlement;
 * an error answers 5xx and the gateway delivers again.
 */
export async function handleWebhook(db: DB, gateways: Gateways, gatewayName: string, rawBody: string, headers: Headers, now = new Date()) {
  const gateway = gateways.byName(gatewayName);
  if (!gateway) throw new MarketError("GATEWAY_NOT_FOUND", 404, "Unknown gateway");
  const event = await gateway.verifyWebhook(rawBody, headers);
  const seen = await db
    .selectFrom("payment_events")
    .select("id")
    .where("gateway", "=", gateway.name)
    .where("event_id", "=", event.eventId)
    .executeTakeFirst();
  if (seen) return { duplicate: true as const };
  let outcome: SettleOutcome = "unknown";
  if (event.gatewayPaymentId) {
    const payment = await gateway.getPayment(event.gatewayPaymentId);
    if (payment) outcome = await settlePayment(db, gateway, payment, now);
  }
  await db
    .insertInto("payment_events")
    .values({
      gateway: gateway.name,
      event_id: event.eventId,
      type: event.type,
      gateway_payment_id: event.gatewayPaymentId,
      received_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(["gateway", "event_id"]).doNothing())
    .execute();
  return { duplicate: false as const, outcome };
}

/**
 * Re-reads open orders placed in the last `days` days from their gateway and settles them: what a missed
 * webhook or a crash between the gateway's answer and the settlement left undone. Cancellations interrupted the
 * same way are repaired too (`reconcileCancellations`): `repaired`, and `unresolved` for a person to look at.
 */
export async function reconcileOpenOrders(
  db: DB,
  gateways: Gateways,
  now = new Date(),
  days = 3,
): Promise<{ checked: number; changed: number; repaired: number; unresolved: number }> {
  const open = await db
    .selectFrom("orders")
    .select(["gateway", "gateway_payment_id", "status"])
    .where("status", "in", ["pending", "waiting"])
    .where("created_at", ">=", new Date(now.getTime() - days * 86_400_000).toISOString())
    .orderBy("id")
    .limit(1000)
    .execute();
  let changed = 0;
  for (const o of open) {
    const gateway = o.gateway ? gateways.byName(o.gateway) : null;
    if (!gateway || !o.gateway_payment_id) continue;
    const payment = await gateway.getPayment(o.gateway_payment_id).catch(() => null);
    if (!payment) continue;
    if ((await settlePayment(db, gateway, payment, now)) !== o.status) changed++;
  }
  const { repaired, unresolved } = await reconcileCancellations(db, gateways, now);
  return { checked: open.length, changed, repaired, unresolved };
}
