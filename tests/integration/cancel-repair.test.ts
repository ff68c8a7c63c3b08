/**
 * A cancellation interrupted half-way (a crash, or no answer from the gateway) leaves its lines claimed
 * ('cancelling') with the refund requested. Reconciliation repairs it from the gateway's record once the grace
 * period has passed: the refund the gateway made is booked, a refund it never made gives the lines back. Either
 * way the member is refunded exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { type CancelRequest, GatewayError, type PaymentGateway } from "../../app/integrations/payments/gateway";
import type { Gateways } from "../../app/integrations/payments/index.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { CANCEL_GRACE_MS, cancelOrder, reconcileCancellations } from "../../app/market/orders/cancel.server";
import { placeOrder, reconcileOpenOrders } from "../../app/market/orders/orders.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

type Shopper = Awaited<ReturnType<typeof newShopper>>;
const later = () => new Date(Date.now() + CANCEL_GRACE_MS + 60_000);

describe(`interrupted cancellations repaired by reconciliation on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number }[];
  let next = 0;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    paid = await db
      .selectFrom("contents")
      .select("id")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .limit(60)
      .execute();
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  /** A paid card order of `n` items. */
  async function buy(s: Shopper, n: number) {
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: s.userId, userType: 1, email: s.email },
      items: paid.slice(next, next + n).map((c) => ({ kind: "content" as const, id: c.id })),
      license: { licenseId: s.licenseId },
      method: "card",
      locale: "en",
      idempotencyKey: `${s.userId}:${next}`,
      origin: "http://store.test",
    });
    next += n;
    await sandbox.act(placed.orderNo, "approve");
    await sandbox.settled();
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", placed.orderNo).executeTakeFirstOrThrow();
    expect(order.status).toBe("complete");
    const lines = await db.selectFrom("order_items").selectAll().where("order_id", "=", order.id).orderBy("id").execute();
    return { order, lines };
  }
  /** The store's gateways with the sandbox's cancel replaced. */
  const withCancel = (cancel: (id: string, request: CancelRequest) => ReturnType<PaymentGateway["cancel"]>): Gateways => {
    const gateway: PaymentGateway = { ...sandbox, cancel };
    return { ...call.payments, byName: (name) => (name === "sandbox" ? gateway : null) };
  };
  const cancel = (s: Shopper, orderId: number, lineIds: number[], gateways: Gateways = call.payments) =>
    cancelOrder(db, gateways, { userId: s.userId, orderId, lineIds, reason: "changed my mind", locale: "en" });
  const orderOf = (id: number) => db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const linesOf = (id: number) =>
    db.selectFrom("order_items").select(["id", "status", "refund_amount"]).where("order_id", "=", id).orderBy("id").execute();
  const refundsOf = (id: number) => db.selectFrom("refunds").selectAll().where("order_id", "=", id).orderBy("id").execute();
  const lineTotal = (l: { unit_price: number; discount: number; vat: number }) => l.unit_price - l.discount + l.vat;

  it("the gateway refunded but the store crashed before booking it: reconciliation books it, once", async () => {
    const s = await newShopper(db);
    const { order } = await buy(s, 2);
    // The refund goes through at the gateway; the answer never reaches the bookkeeping.
    const crashing = withCancel(async (id, request) => {
      await sandbox.cancel(id, request);
      throw new Error("connection reset after the gateway refunded");
    });
    await expect(cancel(s, order.id, [], crashing)).rejects.toThrow("connection reset");
    expect((await linesOf(order.id)).map((l) => l.status)).toEqual(["cancelling", "cancelling"]);
    expect((await refundsOf(order.id)).map((r) => r.status)).toEqual(["requested"]);
    // The member cannot ask again meanwhile.
    await expect(cancel(s, order.id, [])).rejects.toMatchObject({ code: "REFUND_GATEWAY", status: 409 });

    // Within the grace period the claim may still be in flight: left alone.
    expect(await reconcileCancellations(db, call.payments, new Date())).toEqual({ repaired: 0, unresolved: 0 });
    expect(await reconcileOpenOrders(db, call.payments, later())).toMatchObject({ repaired: 1, unresolved: 0 });
    const after = await orderOf(order.id);
    expect(after).toMatchObject({ status: "cancelled", cancel_quantity: 2, cancel_amount: order.total, refund_deduction: 0 });
    const lines = await linesOf(order.id);
    expect(lines.map((l) => l.status)).toEqual(["cancelled", "cancelled"]);
    expect(lines.reduce((n, l) => n + l.refund_amount, 0)).toBe(order.total);
    expect((await refundsOf(order.id)).map((r) => r.status)).toEqual(["succeeded"]);
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(order.total);

    // Again: nothing to do; the member cannot cancel twice; the gateway refunded once.
    expect(await reconcileCancellations(db, call.payments, later())).toEqual({ repaired: 0, unresolved: 0 });
    await expect(
      cancel(
        s,
        order.id,
        lines.map((l) => l.id),
      ),
    ).rejects.toMatchObject({ code: "REFUND_ALREADY_CANCELLED" });
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(order.total);
  });

  it("no answer from the gateway and no refund made: the lines come back and the member is refunded once on asking again", async () => {
    const s = await newShopper(db);
    const { order, lines } = await buy(s, 2);
    const silent = withCancel(async () => {
      throw new GatewayError("NETWORK", "no answer within 10000 ms");
    });
    await expect(cancel(s, order.id, [lines[0].id], silent)).rejects.toMatchObject({ code: "REFUND_GATEWAY" });
    // The outcome is unknown: the line stays claimed, so no second request can refund it meanwhile.
    expect((await linesOf(order.id)).map((l) => l.status)).toEqual(["cancelling", "active"]);
    // Nor can another line be refunded while this one's outcome is unknown.
    for (const line of lines) await expect(cancel(s, order.id, [line.id])).rejects.toMatchObject({ code: "REFUND_GATEWAY", status: 409 });
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(0);

    expect(await reconcileCancellations(db, call.payments, later())).toEqual({ repaired: 1, unresolved: 0 });
    expect((await linesOf(order.id)).map((l) => l.status)).toEqual(["active", "active"]);
    expect((await refundsOf(order.id)).map((r) => r.status)).toEqual(["failed"]);
    expect(await orderOf(order.id)).toMatchObject({ status: "complete", cancel_amount: 0 });

    await cancel(s, order.id, [lines[0].id]);
    expect(await orderOf(order.id)).toMatchObject({
      status: "partially_cancelled",
      cancel_quantity: 1,
      cancel_amount: lineTotal(lines[0]),
    });
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(lineTotal(lines[0]));
    expect(await reconcileCancellations(db, call.payments, later())).toEqual({ repaired: 0, unresolved: 0 });
  });

  it("a gateway's definite refusal gives the lines back at once", async () => {
    const s = await newShopper(db);
    const { order } = await buy(s, 1);
    const refusing = withCancel(async () => {
      throw new GatewayError("PG_PROVIDER", "the card company refused", 502);
    });
    await expect(cancel(s, order.id, [], refusing)).rejects.toMatchObject({ code: "REFUND_GATEWAY" });
    expect((await linesOf(order.id)).map((l) => l.status)).toEqual(["active"]);
    expect((await refundsOf(order.id)).map((r) => r.status)).toEqual(["failed"]);
    await cancel(s, order.id, []);
    expect((await orderOf(order.id)).status).toBe("cancelled");
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(order.total);
  });

  it("a crash left a partial cancellation claimed: booked when the gateway shows the refund, released when it does not", async () => {
    const s = await newShopper(db);
    const { order, lines } = await buy(s, 3);
    const old = new Date(Date.now() - CANCEL_GRACE_MS - 60_000).toISOString();
    /** The state a crash between the claim and the gateway's answer leaves. */
    const claim = async (line: (typeof lines)[number], n: number) => {
      await db.updateTable("order_items").set({ status: "cancelling" }).where("id", "=", line.id).execute();
      await db
        .insertInto("refunds")
        .values({
          order_id: order.id,
          request_id: `${order.order_no}-R${n}`,
          item_ids: String(line.id),
          gross: lineTotal(line),
          deduction: 0,
          amount: lineTotal(line),
          status: "requested",
          reason: "crash",
          created_at: old,
        })
        .execute();
    };
    // First line: the gateway made the refund before the crash.
    await claim(lines[0], 1);
    await sandbox.cancel(order.order_no, { reason: "crash", amount: lineTotal(lines[0]) });
    expect(await reconcileCancellations(db, call.payments)).toEqual({ repaired: 1, unresolved: 0 });
    expect(await orderOf(order.id)).toMatchObject({
      status: "partially_cancelled",
      cancel_quantity: 1,
      cancel_amount: lineTotal(lines[0]),
    });
    expect((await linesOf(order.id))[0]).toMatchObject({ status: "cancelled", refund_amount: lineTotal(lines[0]) });

    // Second line: the crash came before the gateway was asked.
    await claim(lines[1], 2);
    expect(await reconcileCancellations(db, call.payments)).toEqual({ repaired: 1, unresolved: 0 });
    expect((await linesOf(order.id)).map((l) => l.status)).toEqual(["cancelled", "active", "active"]);
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(lineTotal(lines[0]));

    // A claim the gateway's record cannot explain (it refunded a different amount) is left for a person.
    await claim(lines[2], 3);
    await sandbox.cancel(order.order_no, { reason: "manual", amount: 1 });
    expect(await reconcileCancellations(db, call.payments)).toEqual({ repaired: 0, unresolved: 1 });
    expect((await linesOf(order.id))[2].status).toBe("cancelling");
  });
});
