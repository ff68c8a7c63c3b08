/**
 * The store paying through the live adapters (PAYMENT_GATEWAY=live): PortOne V2 for card and virtual account,
 * PayPal for PayPal, each answered by msw handlers that reproduce the documented contracts.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { expireVirtualAccounts } from "../../app/market/orders/expire.server";
import { createPayPalMock, PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID } from "../mocks/paypal";
import {
  PORTONE_API_SECRET,
  PORTONE_CHANNEL_KEYS,
  PORTONE_STORE_ID,
  PORTONE_WEBHOOK_SECRET,
  portOneWebhookBody,
  portone,
  portoneHandlers,
  signPortOneWebhook,
} from "../mocks/portone";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { type Jar, newShopper } from "../support/shopper";

const paypal = createPayPalMock();
const server = setupServer(...portoneHandlers, ...paypal.handlers);
const EN = { "accept-language": "en" };

describe(`live gateways (PortOne V2, PayPal) behind the store on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let items: { id: number }[];
  let next = 0;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: "bypass" });
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, {
      dataDir: t.dataDir,
      env: {
        PAYMENT_GATEWAY: "live",
        PORTONE_API_SECRET,
        PORTONE_WEBHOOK_SECRET,
        PORTONE_STORE_ID,
        PORTONE_CHANNEL_CARD: PORTONE_CHANNEL_KEYS.card,
        PORTONE_CHANNEL_VBANK: PORTONE_CHANNEL_KEYS.vbank,
        PAYPAL_CLIENT_ID,
        PAYPAL_CLIENT_SECRET,
        PAYPAL_WEBHOOK_ID,
      },
    });
    items = await db
      .selectFrom("contents")
      .select("id")
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .orderBy("id")
      .limit(50)
      .execute();
  });
  afterAll(async () => {
    server.close();
    await drop();
  });

  const go = async (jar: Jar, path: string, form?: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    return jar.take(
      await call(path, {
        method: form ? "POST" : "GET",
        body: form ? body : undefined,
        headers: { ...EN, cookie: jar.header, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      }),
    );
  };
  const location = (res: Response) => (res.headers.get("location") ?? "").replace(/^http:\/\/store\.test/, "");
  async function place(method: string) {
    const s = await newShopper(db);
    const at = new Date().toISOString();
    const cart = await db
      .insertInto("carts")
      .values(
        [items[next++], items[next++]].map((i) => ({ user_id: s.userId, ngt: null, content_id: i.id, level_flag: 1, created_at: at })),
      )
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: cart.map((c) => String(c.id)) });
    await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    const res = await go(s.jar, "/pay03", { method, agreeTerms: "on", agreePaid: "on" });
    const order = await db.selectFrom("orders").selectAll().where("user_id", "=", s.userId).executeTakeFirstOrThrow();
    return { s, order, next: location(res) };
  }

  it("offers only the configured methods", async () => {
    const s = await newShopper(db);
    const [line] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: items[40].id, level_flag: 1, created_at: new Date().toISOString() })
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: String(line.id) });
    await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    const html = await (await go(s.jar, "/pay03")).text();
    for (const m of ["card", "vbank", "paypal"]) expect(html).toContain(`value="${m}"`);
    for (const m of ["phone", "kakaopay"]) expect(html).not.toContain(`value="${m}"`);
    expect(html).not.toContain("built-in sandbox gateway; no money moves");
    expect(html).toContain("the payment providers&#x27; test channels are in use");
  });

  it("PortOne card: the browser SDK page gets the server's parameters; the store trusts only PortOne's answer", async () => {
    const { s, order, next: page } = await place("card");
    expect(page).toBe(`/pay/portone?paymentId=${order.order_no}`);
    const html = await (await go(s.jar, page)).text();
    expect(html).toContain(PORTONE_STORE_ID);
    expect(html).toContain(PORTONE_CHANNEL_KEYS.card);
    expect(html).toContain("CURRENCY_KRW");

    // A payer who comes back with a tampered amount paid: never fulfilled, refunded through PortOne.
    portone.setPayment({ id: order.order_no, amount: order.total - 100, method: "card", status: "PAID" });
    const tampered = await go(s.jar, `/pay/return?gateway=portone&paymentId=${order.order_no}`);
    expect(location(tampered)).toBe("/pay-error");
    expect((await db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("failed");
    expect(portone.payment(order.order_no)?.status).toBe("CANCELLED");

    // A retry places a new order; PortOne reports it paid in full; the webhook arrives too, and again.
    const retry = await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" });
    const second = await db
      .selectFrom("orders")
      .selectAll()
      .where("user_id", "=", s.userId)
      .where("status", "=", "pending")
      .executeTakeFirstOrThrow();
    expect(location(retry)).toBe(`/pay/portone?paymentId=${second.order_no}`);
    portone.setPayment({ id: second.order_no, amount: second.total, method: "card", status: "PAID" });
    const body = portOneWebhookBody("Transaction.Paid", { paymentId: second.order_no });
    const headers = signPortOneWebhook(body, { id: "msg_live_1" });
    const hook = await call("/webhooks/payments/portone", {
      method: "POST",
      body,
      headers: { ...headers, "content-type": "application/json" },
    });
    expect(await hook.json()).toMatchObject({ ok: true, duplicate: false });
    const again = await call("/webhooks/payments/portone", {
      method: "POST",
      body,
      headers: { ...signPortOneWebhook(body, { id: "msg_live_1" }), "content-type": "application/json" },
    });
    expect(await again.json()).toMatchObject({ ok: true, duplicate: true });
    const forged = await call("/webhooks/payments/portone", {
      method: "POST",
      body,
      headers: {
        ...signPortOneWebhook(body, { secret: `whsec_${Buffer.from("wrong").toString("base64")}` }),
        "content-type": "application/json",
      },
    });
    expect(forged.status).toBe(400);
    expect(location(await go(s.jar, `/pay/return?gateway=portone&paymentId=${second.order_no}`))).toBe("/payComp");
    expect(await db.selectFrom("orders").selectAll().where("id", "=", second.id).executeTakeFirstOrThrow()).toMatchObject({
      status: "complete",
      paid_amount: second.total,
    });

    // Cancelling one item asks PortOne for exactly that line's amount, against the balance the store expects.
    const [line] = await db.selectFrom("order_items").selectAll().where("order_id", "=", second.id).orderBy("id").execute();
    const cancelled = await go(s.jar, `/mypage/pay/${second.id}`, { line: String(line.id), reason: "wrong item" });
    expect(cancelled.status).toBe(200);
    const cancelCall = portone.requests.filter((r) => r.path === `/payments/${second.order_no}/cancel`).pop();
    expect(cancelCall?.body).toMatchObject({
      amount: line.unit_price + line.vat,
      currentCancellableAmount: second.total,
      reason: "wrong item",
    });
    expect(portone.payment(second.order_no)?.status).toBe("PARTIAL_CANCELLED");
  });

  it("PortOne virtual account: issued, waiting, closed at PortOne and removed after the deadline", async () => {
    const { s, order } = await place("vbank");
    portone.setPayment({ id: order.order_no, amount: order.total, method: "vbank", status: "VIRTUAL_ACCOUNT_ISSUED" });
    expect(location(await go(s.jar, `/pay/return?gateway=portone&paymentId=${order.order_no}`))).toBe("/payComp");
    const waiting = await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(waiting.status).toBe("waiting");
    expect(waiting.vbank_account).toBeTruthy();
    const result = await expireVirtualAccounts(db, call.payments, new Date(Date.parse(waiting.vbank_due_at as string) + 1000));
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(portone.requests.some((r) => r.path === `/payments/${order.order_no}/virtual-account/close`)).toBe(true);
    expect(await db.selectFrom("orders").select("id").where("id", "=", order.id).execute()).toHaveLength(0);
  });

  it("PayPal: approve at PayPal, the store captures in USD; an eCheck completes later by webhook", async () => {
    const { s, order, next: approveUrl } = await place("paypal");
    expect(order.currency).toBe("USD");
    expect(approveUrl).toMatch(/^https:\/\/www\.sandbox\.paypal\.com\/checkoutnow\?token=/);
    const paypalOrder = order.gateway_payment_id as string;
    const params = paypal.approve(paypalOrder, { outcome: "COMPLETED" });
    const back = await go(s.jar, `/pay/return?gateway=paypal&token=${params.token}&PayerID=${params.PayerID}`);
    expect(location(back)).toBe("/payComp");
    expect(await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow()).toMatchObject({
      status: "complete",
      paid_amount: order.total,
    });

    const echeck = await place("paypal");
    const p2 = paypal.approve(echeck.order.gateway_payment_id as string, { outcome: "PENDING" });
    expect(location(await go(echeck.s.jar, `/pay/return?gateway=paypal&token=${p2.token}&PayerID=${p2.PayerID}`))).toBe("/payComp");
    const pending = await db.selectFrom("orders").selectAll().where("id", "=", echeck.order.id).executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ status: "pending", pending_reason: "ECHECK" });
    expect(await (await go(echeck.s.jar, "/payComp")).text()).toContain("PayPal is clearing your eCheck");
    paypal.clearECheck(echeck.order.gateway_payment_id as string);
    const delivery = paypal.signedDelivery(paypal.event("PAYMENT.CAPTURE.COMPLETED", echeck.order.gateway_payment_id as string));
    const hook = await call("/webhooks/payments/paypal", { method: "POST", body: delivery.body, headers: delivery.headers });
    expect(hook.status).toBe(200);
    expect((await db.selectFrom("orders").select("status").where("id", "=", echeck.order.id).executeTakeFirstOrThrow()).status).toBe(
      "complete",
    );
  });
});
