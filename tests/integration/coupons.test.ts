/**
 * One coupon per ID (spec section 2) held against every order of placing, paying, cancelling and expiring: a
 * coupon is reserved by the order that uses it; a new checkout takes it from the member's own unpaid attempt
 * only by closing that attempt for good; a payment that arrives for an order that lost its reservation is
 * refunded, never fulfilled at the discounted price.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { PayMethod } from "../../app/integrations/payments/gateway";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { cancelOrder } from "../../app/market/orders/cancel.server";
import { expireVirtualAccounts } from "../../app/market/orders/expire.server";
import { placeOrder, reconcileOpenOrders, settlePayment } from "../../app/market/orders/orders.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

type Shopper = Awaited<ReturnType<typeof newShopper>>;
const CODE = "WELCOME20";

describe(`one coupon per ID on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number; price_krw: number }[];
  let next = 0;
  const take = () => paid[next++];

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    paid = await db
      .selectFrom("contents")
      .select(["id", "price_krw"])
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .limit(200)
      .execute();
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  /** One checkout (its own idempotency key) of one item, with the coupon unless told otherwise. */
  async function place(s: Shopper, key: string, options: { method?: PayMethod; coupon?: string | null } = {}) {
    const item = take();
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: s.userId, userType: 1, email: s.email },
      items: [{ kind: "content", id: item.id }],
      license: { licenseId: s.licenseId },
      method: options.method ?? "card",
      locale: "en",
      idempotencyKey: `${s.userId}:${key}`,
      origin: "http://store.test",
      coupon: options.coupon === null ? undefined : (options.coupon ?? CODE),
    });
    return { orderNo: placed.orderNo, item };
  }
  /** The payer approves in the gateway's window; its webhook settles the order in the app. */
  async function pay(orderNo: string) {
    await sandbox.act(orderNo, "approve");
    await sandbox.settled();
  }
  const orderOf = (orderNo: string) => db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();
  const discountedPaid = (userId: number) =>
    db
      .selectFrom("orders")
      .select(["order_no", "discount", "total"])
      .where("user_id", "=", userId)
      .where("coupon_code", "=", CODE)
      .where("discount", ">", 0)
      .where("status", "in", ["complete", "partially_cancelled"])
      .execute();
  const redemptions = (userId: number) => db.selectFrom("coupon_redemptions").selectAll().where("user_id", "=", userId).execute();

  it("the seed's running promotion carries WELCOME20", async () => {
    const event = await db.selectFrom("events").selectAll().where("coupon_code", "=", CODE).executeTakeFirstOrThrow();
    expect(event).toMatchObject({ discount_percent: 20, test_only: 0 });
  });

  it("two checkouts one after another, both paid: only the later one is discounted, the earlier is refunded", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a");
    const b = await place(s, "b");
    // The earlier attempt was closed for good when the later one took the coupon.
    expect(await orderOf(a.orderNo)).toMatchObject({ status: "failed", failure_message: "superseded by another checkout" });
    await pay(a.orderNo);
    await pay(b.orderNo);
    expect((await orderOf(a.orderNo)).status).toBe("failed");
    const sa = await sandbox.find(a.orderNo);
    expect(sa).toMatchObject({ status: "cancelled" });
    expect(sa?.cancelled).toBe(sa?.paid);
    const order = await orderOf(b.orderNo);
    const discount = Math.round(b.item.price_krw * 0.2);
    expect(order).toMatchObject({ status: "complete", discount });
    expect((await discountedPaid(s.userId)).map((o) => o.order_no)).toEqual([b.orderNo]);
    expect((await redemptions(s.userId)).map((r) => r.order_id)).toEqual([order.id]);
    // A third checkout finds the coupon used.
    await expect(place(s, "c")).rejects.toMatchObject({ code: "COUPON_USED", status: 409 });
    expect(await reconcileOpenOrders(db, call.payments)).toMatchObject({ changed: 0 });
  });

  it("paid first, the coupon is used: the next checkout is refused", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a");
    await pay(a.orderNo);
    expect((await orderOf(a.orderNo)).status).toBe("complete");
    await expect(place(s, "b")).rejects.toMatchObject({ code: "COUPON_USED", status: 409 });
    expect(await db.selectFrom("orders").select("id").where("user_id", "=", s.userId).execute()).toHaveLength(1);
  });

  it("20 checkouts with the coupon at once, all paid: one discounted order, every other payment refunded or never taken", async () => {
    const s = await newShopper(db);
    const responses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await call("/api/v1/payments", {
          method: "POST",
          body: JSON.stringify({
            items: [{ kind: "content", id: take().id }],
            license_id: s.licenseId,
            method: "card",
            agree_terms: true,
            agree_paid: true,
            idempotency_key: `burst-${String(i).padStart(4, "0")}`,
            coupon: CODE,
          }),
          headers: { "content-type": "application/json", language: "en", authorizationToken: s.token },
        });
        return { status: res.status, json: (await res.json()) as { data?: { order_no: string }; result: { message: string } } };
      }),
    );
    for (const r of responses) expect([200, 409], r.json.result.message).toContain(r.status);
    const placed = responses.flatMap((r) => (r.status === 200 && r.json.data ? [r.json.data.order_no] : []));
    expect(placed.length).toBeGreaterThan(0);
    await Promise.all(placed.map((orderNo) => sandbox.act(orderNo, "approve")));
    await sandbox.settled();
    await reconcileOpenOrders(db, call.payments);
    await sandbox.settled();

    const paidOrders = await discountedPaid(s.userId);
    expect(paidOrders).toHaveLength(1);
    expect((await redemptions(s.userId)).map((r) => r.order_id)).toEqual([(await orderOf(paidOrders[0].order_no)).id]);
    for (const orderNo of placed) {
      if (orderNo === paidOrders[0].order_no) continue;
      const [order, payment] = await Promise.all([orderOf(orderNo), sandbox.find(orderNo)]);
      expect(order.status, orderNo).toBe("failed");
      expect(payment?.cancelled, orderNo).toBe(payment?.paid);
    }
  });

  it("a payment for an order that lost its reservation is refused and refunded, never fulfilled at the discount", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a");
    // What the earlier code left behind: the redemption gone, the discounted order still open.
    await db.deleteFrom("coupon_redemptions").where("user_id", "=", s.userId).execute();
    await pay(a.orderNo);
    const order = await orderOf(a.orderNo);
    expect(order.status).toBe("failed");
    const payment = await sandbox.find(a.orderNo);
    expect(payment?.cancelled).toBe(payment?.paid);
    expect(
      await db.selectFrom("order_items").select("id").where("order_id", "=", order.id).where("expires_at", "is not", null).execute(),
    ).toHaveLength(0);
  });

  it("a payment settled while another checkout closes its order is refunded once", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a");
    await db
      .updateTable("sandbox_payments")
      .set({ status: "paid", paid: (await orderOf(a.orderNo)).total, paid_at: new Date().toISOString() })
      .where("id", "=", a.orderNo)
      .execute();
    const payment = await sandbox.getPayment(a.orderNo);
    // Another checkout closes the order (superseded) after settlement read it as pending and before it claims
    // it: settlement is handed the stale read.
    await db
      .updateTable("orders")
      .set({ status: "failed", failure_message: "superseded by another checkout" })
      .where("order_no", "=", a.orderNo)
      .execute();
    let stale = false;
    const racing = db.withPlugin({
      transformQuery: (args) => args.node,
      async transformResult(args) {
        const row = args.result.rows[0] as { order_no?: string; status?: string } | undefined;
        if (!stale && row?.order_no === a.orderNo && row.status === "failed") {
          stale = true;
          return { ...args.result, rows: [{ ...row, status: "pending" }] as typeof args.result.rows };
        }
        return args.result;
      },
    });
    expect(await settlePayment(racing, sandbox, payment as NonNullable<typeof payment>)).toBe("failed");
    expect(stale).toBe(true);
    await sandbox.settled();
    const after = await sandbox.find(a.orderNo);
    expect(after).toMatchObject({ status: "cancelled" });
    expect(after?.cancelled).toBe(after?.paid);
    // Settling again (a late webhook) finds nothing left to refund.
    expect(await settlePayment(db, sandbox, (await sandbox.getPayment(a.orderNo)) as NonNullable<typeof payment>)).toBe("failed");
    expect((await sandbox.find(a.orderNo))?.cancelled).toBe(after?.paid);
  });

  it("switching method on an attempt paid meanwhile keeps that order's coupon", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a");
    await pay(a.orderNo);
    expect((await orderOf(a.orderNo)).status).toBe("complete");
    // The payer switches to another method on the same checkout; the store read the attempt as still unpaid
    // just before its payment completed.
    let stale = false;
    const racing = db.withPlugin({
      transformQuery: (args) => args.node,
      async transformResult(args) {
        const row = args.result.rows[0] as { order_no?: string; status?: string } | undefined;
        if (!stale && row?.order_no === a.orderNo && row.status === "complete") {
          stale = true;
          return { ...args.result, rows: [{ ...row, status: "pending" }] as typeof args.result.rows };
        }
        return args.result;
      },
    });
    await expect(
      placeOrder(racing, call.payments, {
        buyer: { id: s.userId, userType: 1, email: s.email },
        items: [{ kind: "content", id: a.item.id }],
        license: { licenseId: s.licenseId },
        method: "kakaopay",
        locale: "en",
        idempotencyKey: `${s.userId}:a`,
        origin: "http://store.test",
        coupon: CODE,
      }),
    ).rejects.toMatchObject({ code: "ORDER_ALREADY_PLACED" });
    expect(stale).toBe(true);
    expect((await redemptions(s.userId)).map((r) => r.order_id)).toEqual([(await orderOf(a.orderNo)).id]);
    await expect(place(s, "b")).rejects.toMatchObject({ code: "COUPON_USED", status: 409 });
  });

  it("a virtual account waiting for its deposit holds the coupon until it expires", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a", { method: "vbank" });
    await pay(a.orderNo);
    const waiting = await orderOf(a.orderNo);
    expect(waiting.status).toBe("waiting");
    await expect(place(s, "b")).rejects.toMatchObject({ code: "COUPON_USED", status: 409 });
    expect(await orderOf(a.orderNo)).toMatchObject({ status: "waiting" });
    const due = new Date(waiting.vbank_due_at as string);
    expect(await expireVirtualAccounts(db, call.payments, new Date(due.getTime() + 1000))).toMatchObject({ expired: 1 });
    const c = await place(s, "c");
    await pay(c.orderNo);
    expect((await discountedPaid(s.userId)).map((o) => o.order_no)).toEqual([c.orderNo]);
  });

  it("an unpaid virtual-account attempt that was superseded cannot be issued an account later", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a", { method: "vbank" });
    const b = await place(s, "b");
    expect((await orderOf(a.orderNo)).status).toBe("failed");
    // The payer goes back to the first window and has the account issued: it is closed at once.
    await pay(a.orderNo);
    expect((await sandbox.find(a.orderNo))?.status).toBe("cancelled");
    expect((await orderOf(a.orderNo)).status).toBe("failed");
    await pay(b.orderNo);
    expect((await discountedPaid(s.userId)).map((o) => o.order_no)).toEqual([b.orderNo]);
  });

  it("an attempt whose payment is in progress at the gateway (pending reason) keeps the coupon", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a", { method: "paypal" });
    await db.updateTable("orders").set({ pending_reason: "ECHECK" }).where("order_no", "=", a.orderNo).execute();
    await expect(place(s, "b")).rejects.toMatchObject({ code: "COUPON_USED", status: 409 });
    expect((await orderOf(a.orderNo)).status).toBe("pending");
  });

  it("a whole cancellation gives the coupon back: placing again is discounted", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a");
    await pay(a.orderNo);
    const order = await orderOf(a.orderNo);
    await cancelOrder(db, call.payments, { userId: s.userId, orderId: order.id, lineIds: [], reason: "changed my mind", locale: "en" });
    expect((await orderOf(a.orderNo)).status).toBe("cancelled");
    expect(await redemptions(s.userId)).toHaveLength(0);
    const b = await place(s, "b");
    await pay(b.orderNo);
    expect((await discountedPaid(s.userId)).map((o) => o.order_no)).toEqual([b.orderNo]);
  });

  it("a declined attempt gives the coupon back; without a coupon nothing is reserved", async () => {
    const s = await newShopper(db);
    const a = await place(s, "a");
    await sandbox.act(a.orderNo, "decline");
    await sandbox.settled();
    expect((await orderOf(a.orderNo)).status).toBe("failed");
    expect(await redemptions(s.userId)).toHaveLength(0);
    const plain = await place(s, "plain", { coupon: null });
    expect(await redemptions(s.userId)).toHaveLength(0);
    const b = await place(s, "b");
    // A checkout without the coupon is not superseded by one with it.
    expect((await orderOf(plain.orderNo)).status).toBe("pending");
    await pay(b.orderNo);
    expect((await discountedPaid(s.userId)).map((o) => o.order_no)).toEqual([b.orderNo]);
  });
});
