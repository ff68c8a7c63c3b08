/**
 * Orders as the operator console reads and repairs them (issue 17 point 5): the search, one order with the
 * gateway's record beside ours, the virtual accounts waiting for a deposit (the sandbox's deposit confirmed through
 * the settlement a webhook takes), and reconciliation order by order. Cancelling on a customer's behalf is
 * `cancelOrder` with `operator` (cancel.server.ts); nothing here repeats a rule of settlement or refund.
 */
import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import type { GatewayPayment } from "../../integrations/payments/gateway";
import type { Gateways } from "../../integrations/payments/index.server";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import { CANCEL_GRACE_MS, reconcileOrderCancellations } from "./cancel.server";
import { type CompareRow, compareWithGateway } from "./compare";
import { type OrderDetail, orderDetail } from "./history.server";
import { type SettleAudit, settlePayment } from "./orders.server";

export const CONSOLE_PAGE_SIZE = 30;

export interface OrderSearch {
  orderNo?: string;
  email?: string;
  licenseKey?: string;
  method?: string;
  status?: string;
  /** ISO instants: placed at or after `from`, before `to`. */
  from?: string;
  to?: string;
  page: number;
}

export interface ConsoleOrderRow {
  id: number;
  orderNo: string;
  createdAt: string;
  paidAt: string | null;
  status: string;
  method: string | null;
  currency: "KRW" | "USD";
  total: number;
  cancelAmount: number;
  email: string | null;
  licenseSerial: string | null;
  name: string;
}

const like = (text: string) => `%${text.replace(/[%_\\]/g, "")}%`;

function searchQuery(db: DB, f: OrderSearch) {
  let q = db.selectFrom("orders").leftJoin("users", "users.id", "orders.user_id").leftJoin("licenses", "licenses.id", "orders.license_id");
  if (f.orderNo) q = q.where("orders.order_no", "like", like(f.orderNo.trim().toUpperCase()));
  if (f.email) {
    const email = like(f.email.trim().toLowerCase());
    q = q.where((eb) => eb.or([eb("users.email", "like", email), eb("orders.buyer_email", "like", email)]));
  }
  if (f.licenseKey) q = q.where("licenses.serial", "like", like(f.licenseKey.trim().toUpperCase()));
  if (f.method) q = q.where("orders.method", "=", f.method);
  if (f.status) q = q.where("orders.status", "=", f.status);
  if (f.from) q = q.where("orders.created_at", ">=", f.from);
  if (f.to) q = q.where("orders.created_at", "<", f.to);
  return q;
}

/** A page of orders matching the search, newest first, with the count and the money of all that match per currency. */
export async function searchOrders(db: DB, f: OrderSearch) {
  const q = searchQuery(db, f);
  const [rows, totals] = await Promise.all([
    q
      .select([
        "orders.id",
        "orders.order_no",
        "orders.created_at",
        "orders.ptime",
        "orders.status",
        "orders.method",
        "orders.currency",
        "orders.total",
        "orders.cancel_amount",
        "orders.buyer_email",
        "orders.order_name",
        "users.email as user_email",
        "licenses.serial",
      ])
      .orderBy("orders.created_at", "desc")
      .orderBy("orders.id", "desc")
      .offset((f.page - 1) * CONSOLE_PAGE_SIZE)
      .limit(CONSOLE_PAGE_SIZE)
      .execute(),
    q
      .select((eb) => [
        "orders.currency",
        eb.fn.countAll<number>().as("n"),
        eb.fn.sum<number>("orders.total").as("total"),
        eb.fn.sum<number>("orders.paid_amount").as("paid"),
        eb.fn.sum<number>("orders.cancel_amount").as("refunded"),
      ])
      .groupBy("orders.currency")
      .orderBy("orders.currency")
      .execute(),
  ]);
  const total = totals.reduce((n, t) => n + Number(t.n), 0);
  return {
    rows: rows.map(
      (r): ConsoleOrderRow => ({
        id: r.id,
        orderNo: r.order_no,
        createdAt: r.created_at,
        paidAt: r.ptime,
        status: r.status,
        method: r.method,
        currency: r.currency as "KRW" | "USD",
        total: r.total,
        cancelAmount: r.cancel_amount,
        email: r.user_email ?? r.buyer_email,
        licenseSerial: r.serial,
        name: r.order_name ?? r.order_no,
      }),
    ),
    total,
    totals: totals.map((t) => ({
      currency: t.currency as "KRW" | "USD",
      count: Number(t.n),
      total: Number(t.total ?? 0),
      paid: Number(t.paid ?? 0),
      refunded: Number(t.refunded ?? 0),
    })),
    page: f.page,
    pages: Math.max(1, Math.ceil(total / CONSOLE_PAGE_SIZE)),
  };
}

/** The gateway's record of the order's payment, or why there is none. */
export type GatewayView =
  | { state: "ok"; payment: GatewayPayment; rows: CompareRow[]; agree: boolean }
  | { state: "missing" | "unavailable" | "no_gateway" };

type OrderRecord = { status: string; currency: string; total: number; paid_amount: number; cancel_amount: number };

/** Reads the payment from its gateway and sets it beside ours. */
export async function gatewayView(
  gateways: Gateways,
  order: OrderRecord & { gateway: string | null; gateway_payment_id: string | null },
): Promise<GatewayView> {
  const gateway = order.gateway ? gateways.byName(order.gateway) : null;
  if (!gateway || !order.gateway_payment_id) return { state: "no_gateway" };
  let payment: GatewayPayment | null;
  try {
    payment = await gateway.getPayment(order.gateway_payment_id);
  } catch {
    return { state: "unavailable" };
  }
  if (!payment) return { state: "missing" };
  const compared = compareWithGateway(
    { status: order.status, currency: order.currency, total: order.total, paid: order.paid_amount, cancelled: order.cancel_amount },
    {
      status: payment.status,
      currency: payment.currency,
      total: payment.amount.total,
      paid: payment.amount.paid,
      cancelled: payment.amount.cancelled,
    },
  );
  return { state: "ok", payment, ...compared };
}

export interface ConsoleOrder {
  order: OrderDetail;
  /** The lines an override would let the operator cancel (the member rules waived). */
  overridable: number[];
  gateway: string | null;
  gatewayPaymentId: string | null;
  buyerEmail: string | null;
  failure: string | null;
  updatedAt: string | null;
  member: { id: number; email: string; nickname: string } | null;
  coupon: { code: string; held: boolean } | null;
  events: { id: number; eventId: string; type: string; receivedAt: string }[];
  refunds: {
    id: number;
    requestId: string;
    lines: string;
    gross: number;
    deduction: number;
    amount: number;
    status: string;
    reason: string;
    createdAt: string;
  }[];
  view: GatewayView;
}

/** One order as the console shows it: ours, its people and history, and the gateway's record beside it. */
export async function consoleOrder(db: DB, gateways: Gateways, id: number, locale: Locale, now = new Date()): Promise<ConsoleOrder | null> {
  const [order, waived, row] = await Promise.all([
    orderDetail(db, "console", id, locale, now),
    orderDetail(db, "console", id, locale, now, { override: true }),
    db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst(),
  ]);
  if (!order || !waived || !row) return null;
  const [member, redemption, events, refunds, view] = await Promise.all([
    row.user_id === null
      ? undefined
      : db.selectFrom("users").select(["id", "email", "nickname"]).where("id", "=", row.user_id).executeTakeFirst(),
    row.coupon_code ? db.selectFrom("coupon_redemptions").select("id").where("order_id", "=", row.id).executeTakeFirst() : undefined,
    row.gateway && row.gateway_payment_id
      ? db
          .selectFrom("payment_events")
          .select(["id", "event_id", "type", "received_at"])
          .where("gateway", "=", row.gateway)
          .where("gateway_payment_id", "=", row.gateway_payment_id)
          .orderBy("id")
          .limit(200)
          .execute()
      : [],
    db.selectFrom("refunds").selectAll().where("order_id", "=", row.id).orderBy("id").execute(),
    gatewayView(gateways, row),
  ]);
  return {
    order,
    overridable: waived.lines.filter((l) => l.cancellable).map((l) => l.id),
    gateway: row.gateway,
    gatewayPaymentId: row.gateway_payment_id,
    buyerEmail: row.buyer_email,
    failure: row.failure_message,
    updatedAt: row.updated_at,
    member: member ?? null,
    coupon: row.coupon_code ? { code: row.coupon_code, held: Boolean(redemption) } : null,
    events: events.map((e) => ({ id: e.id, eventId: e.event_id, type: e.type, receivedAt: e.received_at })),
    refunds: refunds.map((r) => ({
      id: r.id,
      requestId: r.request_id,
      lines: r.item_ids,
      gross: r.gross,
      deduction: r.deduction,
      amount: r.amount,
      status: r.status,
      reason: r.reason,
      createdAt: r.created_at,
    })),
    view,
  };
}

/** Virtual-account orders waiting for their deposit, the soonest deadline first. */
export async function waitingDeposits(db: DB, page: number) {
  const q = db.selectFrom("orders").where("status", "=", "waiting").where("method", "=", "vbank");
  const [rows, count] = await Promise.all([
    q
      .select([
        "id",
        "order_no",
        "created_at",
        "currency",
        "total",
        "buyer_email",
        "vbank_bank",
        "vbank_account",
        "vbank_due_at",
        "gateway",
      ])
      .orderBy("vbank_due_at")
      .orderBy("id")
      .offset((page - 1) * CONSOLE_PAGE_SIZE)
      .limit(CONSOLE_PAGE_SIZE)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return { rows, total, page, pages: Math.max(1, Math.ceil(total / CONSOLE_PAGE_SIZE)) };
}

/**
 * The sandbox's deposit on a waiting virtual account, confirmed by an operator: the sandbox records the deposit
 * (and notifies the store as it always does), and the payment read back is settled through `settlePayment`, the
 * webhook's own path. The audit line goes in the settlement's transaction; when the sandbox's webhook settled the
 * order first, the line says so.
 */
export async function confirmSandboxDeposit(db: DB, gateways: Gateways, orderId: number, actor: Actor, now = new Date()) {
  const order = await db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
  if (!order) throw new MarketError("ORDER_NOT_FOUND", 404, "No such order");
  const sandbox = gateways.sandbox;
  if (!sandbox || order.gateway !== sandbox.name || !order.gateway_payment_id)
    throw new MarketError("DEPOSIT_SANDBOX_ONLY", 409, "Deposits are confirmed by the bank through the live gateway");
  if (order.status !== "waiting" || order.method !== "vbank") throw new MarketError("DEPOSIT_NOT_WAITING", 409, order.status);
  await sandbox.act(order.gateway_payment_id, "deposit");
  const payment = await sandbox.getPayment(order.gateway_payment_id);
  if (!payment) throw new MarketError("GATEWAY_UNAVAILABLE", 502, "The payment service does not know the payment");
  const audit: SettleAudit = { actor, action: "order.deposit" };
  const status = await settlePayment(db, sandbox, payment, now, audit);
  if (!audit.written)
    await recordAudit(db, actor, {
      action: "order.deposit",
      targetType: "order",
      targetId: order.id,
      before: { status: order.status, paid: order.paid_amount },
      after: { status, settledBy: "gateway notification", gateway: { status: payment.status, paid: payment.amount.paid } },
    });
  return { status };
}

/**
 * An operator's reconciliation of one order: the payment re-read from its gateway and settled (an open order), and
 * its interrupted cancellations decided (reconcileOrderCancellations). Each change writes its audit line in its
 * transaction; a run that changed nothing writes one line saying what was read.
 */
export async function reconcileOrder(db: DB, gateways: Gateways, orderId: number, actor: Actor, now = new Date()) {
  const order = await db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
  if (!order) throw new MarketError("ORDER_NOT_FOUND", 404, "No such order");
  const gateway = order.gateway ? gateways.byName(order.gateway) : null;
  if (!gateway || !order.gateway_payment_id) throw new MarketError("GATEWAY_UNAVAILABLE", 502, "The payment service is not available");
  let payment: GatewayPayment | null;
  try {
    payment = await gateway.getPayment(order.gateway_payment_id);
  } catch {
    throw new MarketError("GATEWAY_UNAVAILABLE", 502, "The payment service did not answer");
  }
  const audit: SettleAudit = { actor, action: "order.reconcile" };
  if (payment && (order.status === "pending" || order.status === "waiting")) await settlePayment(db, gateway, payment, now, audit);
  const repairs = await reconcileOrderCancellations(db, gateways, order.id, now, CANCEL_GRACE_MS, {
    actor,
    action: "order.reconcile",
    reason: null,
  });
  const after = await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
  const view = await gatewayView(gateways, after);
  if (!audit.written && repairs.repaired === 0)
    await recordAudit(db, actor, {
      action: "order.reconcile",
      targetType: "order",
      targetId: order.id,
      before: { status: order.status, paid: order.paid_amount, cancelled: order.cancel_amount },
      after: {
        status: after.status,
        unchanged: true,
        gateway: payment ? { status: payment.status, paid: payment.amount.paid, cancelled: payment.amount.cancelled } : null,
        agree: view.state === "ok" ? view.agree : null,
      },
    });
  return {
    before: order.status,
    after: after.status,
    changed: after.status !== order.status || after.cancel_amount !== order.cancel_amount || repairs.repaired > 0,
    repaired: repairs.repaired,
    unresolved: repairs.unresolved,
    waiting: repairs.waiting,
    agree: view.state === "ok" ? view.agree : false,
  };
}

export interface ReconcileRow {
  id: number;
  orderNo: string;
  createdAt: string;
  status: string;
  method: string | null;
  currency: "KRW" | "USD";
  total: number;
  /** Why it is listed: still open, a refund request without an answer, or the two records disagree. */
  reasons: ("open" | "refund_open" | "disagree" | "missing" | "unavailable")[];
  gatewayStatus: string | null;
  differences: CompareRow[];
}

/** How many orders the page reads from their gateways at most (a live gateway is an HTTP call each). */
export const RECONCILE_LIMIT = 100;
/**
 * How long the page spends reading gateways: a slow or silent live gateway must not hold the page for minutes.
 * Orders left unread are still listed when they are open or have an unanswered refund.
 */
export const RECONCILE_BUDGET_MS = 8000;

/**
 * The payments needing a look: orders still open (pending placed in the last 3 days, as reconcileOpenOrders
 * reads them; every virtual account waiting), orders with a refund request the gateway never answered, and
 * orders moved in the last 7 days whose gateway record disagrees with ours. At most RECONCILE_LIMIT orders are
 * read, the newest first, within RECONCILE_BUDGET_MS (`checked` of `candidates`).
 */
export async function reconciliationList(
  db: DB,
  gateways: Gateways,
  now = new Date(),
  budgetMs = RECONCILE_BUDGET_MS,
): Promise<{ rows: ReconcileRow[]; checked: number; candidates: number }> {
  const started = Date.now();
  const recent = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const openSince = new Date(now.getTime() - 3 * 86_400_000).toISOString();
  const candidates = await db
    .selectFrom("orders")
    .selectAll()
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("refunds")
            .select("refunds.id")
            .whereRef("refunds.order_id", "=", "orders.id")
            .where("refunds.status", "=", "requested")
            .where("refunds.gateway_cancellation_id", "is", null),
        )
        .as("refund_open"),
    )
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("created_at", ">=", openSince)]),
        eb("status", "=", "waiting"),
        eb.exists(
          eb
            .selectFrom("refunds")
            .select("refunds.id")
            .whereRef("refunds.order_id", "=", "orders.id")
            .where("refunds.status", "=", "requested")
            .where("refunds.gateway_cancellation_id", "is", null),
        ),
        eb(eb.fn.coalesce("updated_at", "created_at"), ">=", recent),
      ]),
    )
    .orderBy("id", "desc")
    .limit(RECONCILE_LIMIT)
    .execute();
  const rows: ReconcileRow[] = [];
  let checked = 0;
  // A few reads at a time: a live gateway is called once per order, within the page's budget.
  for (let i = 0; i < candidates.length; i += 5) {
    const batch = candidates.slice(i, i + 5);
    const read = Date.now() - started < budgetMs;
    const views: (GatewayView | null)[] = read ? await Promise.all(batch.map((o) => gatewayView(gateways, o))) : batch.map(() => null);
    if (read) checked += batch.length;
    for (const [j, o] of batch.entries()) {
      const view = views[j];
      const reasons: ReconcileRow["reasons"] = [];
      if (o.status === "pending" || o.status === "waiting") reasons.push("open");
      if (Number(o.refund_open)) reasons.push("refund_open");
      if (view?.state === "ok" && !view.agree) reasons.push("disagree");
      if (view?.state === "missing" && o.status !== "pending" && o.status !== "failed") reasons.push("missing");
      if (view?.state === "unavailable") reasons.push("unavailable");
      if (!reasons.length) continue;
      rows.push({
        id: o.id,
        orderNo: o.order_no,
        createdAt: o.created_at,
        status: o.status,
        method: o.method,
        currency: o.currency as "KRW" | "USD",
        total: o.total,
        reasons,
        gatewayStatus: view?.state === "ok" ? view.payment.status : null,
        differences: view?.state === "ok" ? view.rows.filter((r) => r.agree === false) : [],
      });
    }
  }
  return { rows, checked, candidates: candidates.length };
}
