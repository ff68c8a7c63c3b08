/**
 * The console's orders section (issue 17 point 5) end to end: the page's form post → the domain (cancelOrder with
 * an operator, settlePayment, the per-order reconciliation) → the database and the gateway's ledger (the sandbox)
 * → what the member then sees, the refund mail and the audit line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { CancelRequest, PaymentGateway } from "../../app/integrations/payments/gateway";
import type { Gateways } from "../../app/integrations/payments/index.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { type Currency, formatMoney } from "../../app/market/money";
import { CANCEL_GRACE_MS, cancelOrder } from "../../app/market/orders/cancel.server";
import { reconciliationList } from "../../app/market/orders/console.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

type Shopper = Awaited<ReturnType<typeof newShopper>>;
type Method = "card" | "vbank" | "phone";

describe(`console orders: search, the gateway beside ours, refunds for the customer, deposits, reconciliation on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number }[];
  let next = 0;
  let finance: string;

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
      .limit(80)
      .execute();
    finance = await signInOperator(call, "finance", "198.51.100.140");
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  const get = (path: string, cookie = finance) => call(path, { headers: { cookie: `${cookie}; lng=en` }, ip: "198.51.100.141" });
  const post = (path: string, fields: Record<string, string>, lines: string[] = []) => {
    const body = new URLSearchParams(fields);
    for (const l of lines) body.append("line", l);
    return call(path, {
      method: "POST",
      headers: { cookie: `${finance}; lng=en`, "content-type": "application/x-www-form-urlencoded" },
      body,
      ip: "198.51.100.142",
    });
  };

  /** An order of `n` items placed by the shopper; approved at the sandbox (paid, or a virtual account issued). */
  async function buy(s: Shopper, n: number, method: Method = "card", approve = true) {
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: s.userId, userType: 1, email: s.email },
      items: paid.slice(next, next + n).map((c) => ({ kind: "content" as const, id: c.id })),
      license: { licenseId: s.licenseId },
      method,
      locale: "en",
      idempotencyKey: `admin-orders:${s.userId}:${next}`,
      origin: "http://store.test",
    });
    next += n;
    if (approve) await sandbox.act(placed.orderNo, "approve");
    await sandbox.settled();
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", placed.orderNo).executeTakeFirstOrThrow();
    const lines = await db.selectFrom("order_items").selectAll().where("order_id", "=", order.id).orderBy("id").execute();
    return { order, lines, lineIds: lines.map((l) => String(l.id)) };
  }
  const orderOf = (id: number) => db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const auditOf = (id: number, action: string) =>
    db
      .selectFrom("audit_log")
      .selectAll()
      .where("target_type", "=", "order")
      .where("target_id", "=", String(id))
      .where("action", "=", action)
      .orderBy("id")
      .execute();
  const refundMails = (to: string) =>
    db.selectFrom("mail_outbox").selectAll().where("to_address", "=", to).where("kind", "=", "refund").execute();

  it("finds orders by number, member, licence key, method, status and day, newest first, with totals; bad values answer 400", async () => {
    const s = await newShopper(db);
    const first = await buy(s, 1);
    const second = await buy(s, 2);
    const byEmail = await get(`/admin/orders?email=${encodeURIComponent(s.email)}`);
    expect(byEmail.status).toBe(200);
    const html = await byEmail.text();
    expect(html).toContain("Orders found: 2");
    // Newest first.
    expect(html.indexOf(second.order.order_no)).toBeLessThan(html.indexOf(first.order.order_no));
    expect(html).toContain(`href="/admin/orders/${first.order.id}"`);
    // Totals of what matched, per currency.
    const sum = first.order.total + second.order.total;
    expect(html).toContain(formatMoney(sum, first.order.currency as Currency, "en"));

    const byNo = await (await get(`/admin/orders?orderNo=${second.order.order_no.toLowerCase()}`)).text();
    expect(byNo).toContain("Orders found: 1");
    expect(byNo).toContain(second.order.order_no);
    const byKey = await (await get(`/admin/orders?licenseKey=${s.serial}&method=card&status=complete`)).text();
    expect(byKey).toContain("Orders found: 2");
    expect(await (await get(`/admin/orders?licenseKey=${s.serial}&status=cancelled`)).text()).toContain("No order matches.");
    const today = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
    expect(await (await get(`/admin/orders?email=${encodeURIComponent(s.email)}&from=${today}&to=${today}`)).text()).toContain(
      "Orders found: 2",
    );
    expect(await (await get(`/admin/orders?email=${encodeURIComponent(s.email)}&to=2001-01-01`)).text()).toContain("No order matches.");

    const bad = await get(`/admin/orders?status=stolen&email=${encodeURIComponent(s.email)}`);
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Some search values were not understood");
    expect(badHtml).toContain(`value="${s.email}"`);
    // Support does not reach the orders area.
    const support = await signInOperator(call, "support", "198.51.100.143");
    expect((await get("/admin/orders", support)).status).toBe(403);
    expect((await get(`/admin/orders/${first.order.id}`, support)).status).toBe(403);
  });

  it("shows the order with the gateway's record beside ours and flags a disagreement", async () => {
    const s = await newShopper(db);
    const { order } = await buy(s, 2);
    const page = await get(`/admin/orders/${order.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Order ${order.order_no}`);
    expect(html).toContain("The gateway&#x27;s record agrees with ours.");
    expect(html).toContain(s.serial);
    expect(html).toContain(s.email);
    expect(html).toContain("Transaction.Paid");
    // The gateway refunded part of it behind the store's back: flagged.
    await db
      .updateTable("sandbox_payments")
      .set({ cancelled: 100, status: "partial_cancelled" })
      .where("id", "=", order.order_no)
      .execute();
    const flagged = await (await get(`/admin/orders/${order.id}`)).text();
    expect(flagged).toContain("disagrees with ours");
    expect(flagged.match(/class="compare-disagree"/g)?.length).toBe(3); // status, refunded, still held
    // It is listed for reconciliation, which cannot settle a refund made elsewhere: it says so and logs the read.
    const list = await (await get("/admin/orders/reconciliation")).text();
    expect(list).toContain(order.order_no);
    expect(list).toContain("Records disagree");
    const rec = await post("/admin/orders/reconciliation", { intent: "reconcile", id: String(order.id) });
    expect(rec.status).toBe(200);
    expect(await rec.text()).toContain("The records still disagree.");
    const lines = await auditOf(order.id, "order.reconcile");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0].after_json as string)).toMatchObject({ unchanged: true, agree: false });
    await db.updateTable("sandbox_payments").set({ cancelled: 0, status: "paid" }).where("id", "=", order.order_no).execute();
    expect((await get("/admin/orders/999999999")).status).toBe(404);
    expect((await get("/admin/orders/abc")).status).toBe(404);
  });

  it("refunds on the customer's behalf through the gateway: the member sees it cancelled and gets the refund mail; the audit line has the reason", async () => {
    const s = await newShopper(db);
    const { order, lineIds } = await buy(s, 2);
    // Bad input: the form comes back with the message, nothing changes.
    const noReason = await post(`/admin/orders/${order.id}`, { intent: "cancel", reason: " " }, lineIds);
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("Write a reason (2 to 200 characters).");
    const noLines = await post(`/admin/orders/${order.id}`, { intent: "cancel", reason: "customer asked by phone" });
    expect(noLines.status).toBe(400);
    const noLinesHtml = await noLines.text();
    expect(noLinesHtml).toContain("Select at least one item to cancel.");
    expect(noLinesHtml).toContain("customer asked by phone");
    const stranger = await post(`/admin/orders/${order.id}`, { intent: "cancel", reason: "customer asked" }, ["999999"]);
    expect(stranger.status).toBe(409);
    expect((await orderOf(order.id)).status).toBe("complete");

    const res = await post(
      `/admin/orders/${order.id}`,
      { intent: "cancel", reason: "Customer bought the wrong pack (ticket 812)" },
      lineIds,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("refunded to the customer");
    await sandbox.settled();
    expect(await orderOf(order.id)).toMatchObject({ status: "cancelled", cancel_amount: order.total, cancel_quantity: 2 });
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(order.total);
    const refunds = await db.selectFrom("refunds").selectAll().where("order_id", "=", order.id).execute();
    expect(refunds.map((r) => [r.status, r.reason])).toEqual([["succeeded", "Customer bought the wrong pack (ticket 812)"]]);
    expect(await refundMails(s.email)).toHaveLength(1);
    const [line] = await auditOf(order.id, "order.refund");
    expect(line.reason).toBe("Customer bought the wrong pack (ticket 812)");
    expect(line.operator_email).toContain("@");
    expect(JSON.parse(line.before_json as string)).toMatchObject({ status: "complete", cancelled: 0 });
    expect(JSON.parse(line.after_json as string)).toMatchObject({ status: "cancelled", cancelled: order.total, override: false });

    // The member's payment history shows it cancelled.
    const history = await call("/mypage/pay", { headers: { cookie: `${s.jar.header}; lng=en` } });
    expect(history.status).toBe(200);
    const mine = await history.text();
    expect(mine).toContain(order.order_no);
    expect(mine).toContain("Cancelled");
    // The console shows the refund and the gateway agreeing.
    const detail = await (await get(`/admin/orders/${order.id}`)).text();
    expect(detail).toContain(`${order.order_no}-R1`);
    expect(detail).toContain("The gateway&#x27;s record agrees with ours.");
  });

  it("keeps the member rules unless overridden with a reason: a downloaded item, a payment older than 7 days", async () => {
    const s = await newShopper(db);
    const { order, lines, lineIds } = await buy(s, 3);
    await db.updateTable("order_items").set({ first_downloaded_at: new Date().toISOString() }).where("id", "=", lines[0].id).execute();
    const refused = await post(`/admin/orders/${order.id}`, { intent: "cancel", reason: "customer says the file is broken" }, [lineIds[0]]);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("A selected item was downloaded. Override the member rules to cancel anyway.");
    expect(await auditOf(order.id, "order.refund")).toHaveLength(0);
    const overridden = await post(
      `/admin/orders/${order.id}`,
      { intent: "cancel", reason: "file verified broken, refund despite download", override: "1" },
      [lineIds[0]],
    );
    expect(overridden.status).toBe(200);
    const after = await orderOf(order.id);
    expect(after.status).toBe("partially_cancelled");
    const share = lines[0].unit_price - lines[0].discount + lines[0].vat;
    expect(after.cancel_amount).toBe(share);
    const [line] = await auditOf(order.id, "order.refund");
    expect(JSON.parse(line.after_json as string)).toMatchObject({ override: true, status: "partially_cancelled", cancelled: share });
    expect(line.reason).toBe("file verified broken, refund despite download");

    // Eight days after payment: refused by the rules, done with the override.
    await db
      .updateTable("orders")
      .set({ ptime: new Date(Date.now() - 8 * 86_400_000).toISOString() })
      .where("id", "=", order.id)
      .execute();
    const late = await post(`/admin/orders/${order.id}`, { intent: "cancel", reason: "late but our fault" }, [lineIds[1]]);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("More than 7 days have passed");
    const lateOk = await post(`/admin/orders/${order.id}`, { intent: "cancel", reason: "late but our fault", override: "1" }, [
      lineIds[1],
      lineIds[2],
    ]);
    expect(lateOk.status).toBe(200);
    expect(await orderOf(order.id)).toMatchObject({ status: "cancelled", cancel_amount: order.total });
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(order.total);
    expect(await auditOf(order.id, "order.refund")).toHaveLength(2);
  });

  it("refunds once on a double click: two concurrent posts, one refund at the gateway", async () => {
    const s = await newShopper(db);
    const { order, lineIds } = await buy(s, 2);
    const fields = { intent: "cancel", reason: "double click test" };
    const [a, b] = await Promise.all([
      post(`/admin/orders/${order.id}`, fields, lineIds),
      post(`/admin/orders/${order.id}`, fields, lineIds),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    await sandbox.settled();
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(order.total);
    expect(await orderOf(order.id)).toMatchObject({ status: "cancelled", cancel_amount: order.total });
    const refunds = await db.selectFrom("refunds").selectAll().where("order_id", "=", order.id).execute();
    expect(refunds.filter((r) => r.status === "succeeded")).toHaveLength(1);
    expect(await refundMails(s.email)).toHaveLength(1);
    expect(await auditOf(order.id, "order.refund")).toHaveLength(1);
    // A third click later: already cancelled, still one refund.
    const again = await post(`/admin/orders/${order.id}`, fields, lineIds);
    expect(again.status).toBe(409);
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(order.total);
  });

  it("refunds a virtual-account payment to the account given, keeping back 10%", async () => {
    const s = await newShopper(db);
    const { order, lineIds } = await buy(s, 1, "vbank");
    expect(order.status).toBe("waiting");
    await post("/admin/orders/deposits", { intent: "deposit", id: String(order.id) });
    const noAccount = await post(`/admin/orders/${order.id}`, { intent: "cancel", reason: "customer changed mind" }, lineIds);
    expect(noAccount.status).toBe(400);
    expect(await noAccount.text()).toContain("needs the customer");
    const badAccount = await post(
      `/admin/orders/${order.id}`,
      { intent: "cancel", reason: "customer changed mind", bank: "KB", account: "x", holder: "Kim" },
      lineIds,
    );
    expect(badAccount.status).toBe(400);
    const ok = await post(
      `/admin/orders/${order.id}`,
      { intent: "cancel", reason: "customer changed mind", bank: "KB", account: "123-456-7890", holder: "Kim" },
      lineIds,
    );
    expect(ok.status).toBe(200);
    const after = await orderOf(order.id);
    const deduction = Math.round(order.total / 10);
    expect(after).toMatchObject({ status: "cancelled", cancel_amount: order.total - deduction, refund_deduction: deduction });
    expect((await sandbox.find(order.order_no))?.cancelled).toBe(order.total - deduction);
  });

  it("lists virtual accounts waiting for a deposit and confirms one through the settlement, audited; once", async () => {
    const s = await newShopper(db);
    const { order } = await buy(s, 2, "vbank");
    expect(order.status).toBe("waiting");
    const list = await get("/admin/orders/deposits");
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain(order.order_no);
    expect(html).toContain(order.vbank_account as string);
    const bad = await post("/admin/orders/deposits", { intent: "deposit", id: "x" });
    expect(bad.status).toBe(400);
    const res = await post("/admin/orders/deposits", { intent: "deposit", id: String(order.id) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`Deposit confirmed for ${order.order_no}: Paid.`);
    await sandbox.settled();
    const after = await orderOf(order.id);
    expect(after).toMatchObject({ status: "complete", paid_amount: order.total });
    const receipts = await db
      .selectFrom("mail_outbox")
      .select("id")
      .where("to_address", "=", s.email)
      .where("kind", "=", "deposit")
      .execute();
    expect(receipts).toHaveLength(1);
    const lines = await auditOf(order.id, "order.deposit");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0].before_json as string)).toMatchObject({ status: "waiting" });
    expect(JSON.parse(lines[0].after_json as string)).toMatchObject({ status: "complete" });
    // Again: no longer waiting, nothing settled twice.
    const again = await post("/admin/orders/deposits", { intent: "deposit", id: String(order.id) });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("no longer waiting for a deposit");
    expect(await (await get("/admin/orders/deposits")).text()).not.toContain(order.order_no);
    // The member's history shows it paid.
    const mine = await (await call("/mypage/pay", { headers: { cookie: `${s.jar.header}; lng=en` } })).text();
    expect(mine).toContain(order.order_no);
  });

  it("reconciles a payment whose notification never came, and a refund whose answer never came, from the gateway's record", async () => {
    const s = await newShopper(db);
    // Paid at the gateway; the notification was lost (the ledger changed without a webhook).
    const { order } = await buy(s, 1, "card", false);
    expect(order.status).toBe("pending");
    await db
      .updateTable("sandbox_payments")
      .set({ status: "paid", paid: order.total, paid_at: new Date().toISOString() })
      .where("id", "=", order.order_no)
      .execute();
    const page = await (await get("/admin/orders/reconciliation")).text();
    expect(page).toContain(order.order_no);
    expect(page).toContain("Payment still open");
    expect(page).toContain("Records disagree");
    const bad = await post("/admin/orders/reconciliation", { intent: "reconcile", id: "-1" });
    expect(bad.status).toBe(400);
    const res = await post("/admin/orders/reconciliation", { intent: "reconcile", id: String(order.id) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`${order.order_no}: Not paid yet → Paid.`);
    expect(await orderOf(order.id)).toMatchObject({ status: "complete", paid_amount: order.total });
    const [line] = await auditOf(order.id, "order.reconcile");
    expect(JSON.parse(line.before_json as string)).toMatchObject({ status: "pending" });
    expect(JSON.parse(line.after_json as string)).toMatchObject({ status: "complete" });
    expect(await (await get("/admin/orders/reconciliation")).text()).not.toContain(order.order_no);

    // A refund the gateway made whose answer never reached the store: listed, and booked once after the grace.
    const second = await buy(s, 2);
    const crashing: Gateways = {
      ...call.payments,
      byName: (name) =>
        name === "sandbox"
          ? ({
              ...sandbox,
              cancel: async (id: string, request: CancelRequest) => {
                await sandbox.cancel(id, request);
                throw new Error("connection reset after the gateway refunded");
              },
            } as PaymentGateway)
          : null,
    };
    await expect(
      cancelOrder(db, crashing, { userId: s.userId, orderId: second.order.id, lineIds: [], reason: "changed my mind", locale: "en" }),
    ).rejects.toThrow("connection reset");
    const listed = await (await get("/admin/orders/reconciliation")).text();
    expect(listed).toContain(second.order.order_no);
    expect(listed).toContain("Refund not answered");
    const early = await post("/admin/orders/reconciliation", { intent: "reconcile", id: String(second.order.id) });
    expect(await early.text()).toContain("still within its 10 minutes");
    expect((await orderOf(second.order.id)).status).toBe("complete");
    await db
      .updateTable("refunds")
      .set({ created_at: new Date(Date.now() - CANCEL_GRACE_MS - 60_000).toISOString() })
      .where("order_id", "=", second.order.id)
      .execute();
    const [x, y] = await Promise.all([
      post("/admin/orders/reconciliation", { intent: "reconcile", id: String(second.order.id) }),
      post("/admin/orders/reconciliation", { intent: "reconcile", id: String(second.order.id) }),
    ]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(await orderOf(second.order.id)).toMatchObject({ status: "cancelled", cancel_amount: second.order.total });
    expect((await sandbox.find(second.order.order_no))?.cancelled).toBe(second.order.total);
    expect(await refundMails(s.email)).toHaveLength(1);
    const booked = (await auditOf(second.order.id, "order.reconcile")).filter((l) => !JSON.parse(l.after_json as string).unchanged);
    expect(booked).toHaveLength(1);
    expect(JSON.parse(booked[0].after_json as string)).toMatchObject({ status: "cancelled", cancelled: second.order.total });
  });

  it("lists open payments without reading the gateway once the page's time for gateway reads is spent", async () => {
    const s = await newShopper(db);
    const { order } = await buy(s, 1, "card", false);
    const unread = await reconciliationList(db, call.payments, new Date(), 0);
    expect(unread.checked).toBe(0);
    expect(unread.candidates).toBeGreaterThan(0);
    expect(unread.rows.find((r) => r.id === order.id)).toMatchObject({ reasons: ["open"], gatewayStatus: null });
    const read = await reconciliationList(db, call.payments, new Date());
    expect(read.checked).toBe(read.candidates);
    expect(read.rows.find((r) => r.id === order.id)).toMatchObject({ reasons: ["open"], gatewayStatus: "ready" });
  });
});
