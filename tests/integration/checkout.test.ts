import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import type { PayMethod } from "../../app/integrations/payments/gateway";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import type { MarketError } from "../../app/market/errors";
import { cancelOrder } from "../../app/market/orders/cancel.server";
import { expireVirtualAccounts } from "../../app/market/orders/expire.server";
import { reconcileOpenOrders, settlePayment } from "../../app/market/orders/orders.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { Jar, newShopper } from "../support/shopper";

const EN = { "accept-language": "en" };
const DAY = 86_400_000;
type Shopper = Awaited<ReturnType<typeof newShopper>>;

describe(`checkout and payments through the sandbox gateway on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number; code: string; price_krw: number; price_usd: number }[];
  let next = 0;
  const take = (n: number) => {
    const items = paid.slice(next, next + n);
    next += n;
    return items;
  };

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    paid = await db
      .selectFrom("contents")
      .select(["id", "code", "price_krw", "price_usd"])
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

  /** A request as the browser without JavaScript sends it, cookies from and into the jar. */
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
  /** Where a redirect points, as a path on this store (the gateway returns the payer to an absolute address). */
  const location = (res: Response) => (res.headers.get("location") ?? "").replace(/^http:\/\/store\.test/, "");

  /** Cart → /pay01 → /pay02 (the shopper's licence) → /pay03 (method, agreements): answers the gateway's address. */
  async function placeThroughPages(s: Shopper, contentIds: number[], method: PayMethod) {
    const at = new Date().toISOString();
    const cart = await db
      .insertInto("carts")
      .values(contentIds.map((id) => ({ user_id: s.userId, ngt: null, content_id: id, level_flag: 1, created_at: at })))
      .returning("id")
      .execute();
    const buy = await go(s.jar, "/cart", { intent: "buy", cart_id: cart.map((c) => String(c.id)) });
    expect(location(buy)).toBe("/pay01");
    const step1 = await go(s.jar, "/pay01");
    expect(step1.status).toBe(200);
    const choose = await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    expect(location(choose)).toBe("/pay03");
    const pay = await go(s.jar, "/pay03", { method, agreeTerms: "on", agreePaid: "on" });
    expect(pay.status).toBe(302);
    const hosted = location(pay);
    expect(hosted).toMatch(/^\/sandbox\/pay\/MKT-\d{8}-[0-9A-F]{8}$/);
    return { hosted, orderNo: decodeURIComponent(hosted.split("/").pop() as string) };
  }
  const orderOf = (orderNo: string) => db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();

  it("pays for two cart items by card: the server's amount, the order fulfilled once, the cart emptied, history and detail", async () => {
    const s = await newShopper(db);
    const items = take(2);
    const { hosted, orderNo } = await placeThroughPages(
      s,
      items.map((i) => i.id),
      "card",
    );
    const order = await orderOf(orderNo);
    const expected = items.reduce((n, i) => n + i.price_krw + Math.round(i.price_krw / 10), 0);
    expect(order).toMatchObject({ status: "pending", currency: "KRW", total: expected, method: "card", license_id: s.licenseId });

    const page = await (await go(s.jar, hosted)).text();
    expect(page).toContain("TEST MODE");
    const approved = await go(s.jar, hosted, { action: "approve" });
    expect(location(approved)).toBe(`/pay/return?gateway=sandbox&paymentId=${orderNo}`);
    const back = await go(s.jar, location(approved));
    expect(location(back)).toBe("/payComp");
    const done = await (await go(s.jar, "/payComp")).text();
    expect(done).toContain("Payment complete");
    expect(done).toContain(orderNo);
    // The member's own licence: "Download now" opens its downloads.
    expect(done).toMatch(/href="\/mypage\/download\?license=\d+"/);

    // The webhook arrives too (and again, late): nothing changes twice.
    await sandbox.settled();
    await sandbox.notify(orderNo);
    await sandbox.notify(orderNo);
    const after = await orderOf(orderNo);
    expect(after).toMatchObject({ status: "complete", paid_amount: expected });
    const lines = await db.selectFrom("order_items").selectAll().where("order_id", "=", after.id).execute();
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(Date.parse(l.expires_at as string) - Date.parse(after.ptime as string)).toBe(90 * DAY);
    expect(await db.selectFrom("carts").select("id").where("user_id", "=", s.userId).execute()).toHaveLength(0);
    expect(await db.selectFrom("payment_events").select("id").where("gateway_payment_id", "=", orderNo).execute()).toHaveLength(3);

    const history = await (await go(s.jar, "/mypage/pay")).text();
    expect(history).toContain(orderNo);
    expect(history).toContain("Available to search for up to 3 years");
    const detail = await (await go(s.jar, `/mypage/pay/${after.id}`)).text();
    expect(detail).toContain("Member purchase");
    expect(detail).toContain(s.serial);
    expect(detail).toContain("Complete");
  });

  it("shows a checkout in one currency on every step: the page's, a method charging in another says its amount (issue 18, point 7)", async () => {
    const s = await newShopper(db);
    const [item] = take(1);
    const at = new Date().toISOString();
    const [cart] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: item.id, level_flag: 1, created_at: at })
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: [String(cart.id)] });
    const summary = (html: string) => /<dl class="price-box"[\s\S]*?<\/dl>/.exec(html)?.[0] ?? "";
    const step1 = summary(await (await go(s.jar, "/pay01")).text());
    expect(step1).toContain("$");
    expect(step1).not.toContain("₩");
    await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    const page3 = await (await go(s.jar, "/pay03")).text();
    expect(summary(page3)).toBe(step1);
    const krw = `₩${(item.price_krw + Math.round(item.price_krw / 10)).toLocaleString("en-US")}`;
    expect(page3).toContain(`Charges ${krw}`);
    expect(page3.match(/₩/g)?.length).toBe(4); // card, phone, Kakao Pay and virtual account each say what they charge
  });

  it("buys for a non-member's licence by its key, never by its id alone (the order would show its key)", async () => {
    const s = await newShopper(db);
    const guest = await db
      .selectFrom("licenses")
      .select(["id", "serial"])
      .where("serial", "=", DEMO.licenses.nonmember.serial)
      .executeTakeFirstOrThrow();
    const [item] = take(1);
    const [line] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: item.id, level_flag: 1, created_at: new Date().toISOString() })
      .returning("id")
      .execute();
    expect(location(await go(s.jar, "/cart", { intent: "buy", cart_id: String(line.id) }))).toBe("/pay01");
    const byId = await go(s.jar, "/pay02", { choice: String(guest.id) });
    expect(byId.status).toBe(400);
    expect(await byId.text()).toContain("No license key with this information found.");
    expect(location(await go(s.jar, "/pay02", { choice: "key", serial: guest.serial.toLowerCase() }))).toBe("/pay03");
    const pay = await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" });
    const orderNo = decodeURIComponent(location(pay).split("/").pop() as string);
    expect(await orderOf(orderNo)).toMatchObject({ license_id: guest.id, user_id: s.userId });
    // Paid: "Download now" cannot lead to the member's downloads (the key is not theirs) but to linking the key.
    const approved = await go(s.jar, location(pay), { action: "approve" });
    await go(s.jar, location(approved));
    const done = await (await go(s.jar, "/payComp")).text();
    expect(done).toContain(`/mypage/licenses?link=${encodeURIComponent(guest.serial)}#link-licence`);
    expect(done).not.toContain("/mypage/download?license=");
    const linkPage = await (await go(s.jar, `/mypage/licenses?link=${encodeURIComponent(guest.serial)}`)).text();
    expect(linkPage).toContain(`value="${guest.serial}"`);

    // The API alike; given both, the id and the key must name the same licence.
    const place = async (license: { license_id?: number; serial?: string }, key: string) =>
      (
        await call("/api/v1/payments", {
          method: "POST",
          headers: { authorizationToken: s.token, "content-type": "application/json" },
          body: JSON.stringify({
            items: [{ kind: "content", id: take(1)[0].id }],
            ...license,
            method: "card",
            agree_terms: true,
            agree_paid: true,
            idempotency_key: key,
          }),
        })
      ).status;
    expect(await place({ license_id: guest.id }, "guest-by-id")).toBe(404);
    expect(await place({ license_id: s.licenseId, serial: guest.serial }, "guest-mixed")).toBe(404);
    expect(await place({ license_id: guest.id, serial: guest.serial }, "guest-both")).toBe(200);
    expect(await place({ serial: guest.serial }, "guest-by-key")).toBe(200);
    expect(await place({ license_id: s.licenseId }, "own-by-id")).toBe(200);
  });

  it("re-renders step 3 with the message when the agreements are missing, keeping the chosen method", async () => {
    const s = await newShopper(db);
    const at = new Date().toISOString();
    const [line] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: take(1)[0].id, level_flag: 1, created_at: at })
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: String(line.id) });
    await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    const refused = await go(s.jar, "/pay03", { method: "kakaopay", agreeTerms: "on" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("You must agree to the terms and privacy policy and to the paid-service terms.");
    expect(html).toMatch(/<input[^>]+checked=""[^>]+value="kakaopay"/);
    expect(html).toMatch(/<input type="checkbox" name="agreeTerms" checked=""/);
    expect(await db.selectFrom("orders").select("id").where("user_id", "=", s.userId).execute()).toHaveLength(0);
  });

  it("pages without the order in the session say it expired and go home", async () => {
    const s = await newShopper(db);
    for (const path of ["/pay01", "/pay02", "/pay03", "/payComp", "/pay-error", "/pay-cancel"]) {
      expect(location(await go(s.jar, path)), path).toBe("/?notice=session-expired");
    }
    const home = await (await go(s.jar, "/?notice=session-expired")).text();
    expect(home).toContain("This page&#x27;s session has expired");
  });

  it("order data goes with the session: a visitor whose session ended has the checkout cleared", async () => {
    const s = await newShopper(db);
    const [line] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: take(1)[0].id, level_flag: 1, created_at: new Date().toISOString() })
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: String(line.id) });
    expect(s.jar.has("pay")).toBe(true);
    await db.deleteFrom("sessions").where("user_id", "=", s.userId).execute();
    const home = await go(s.jar, "/");
    expect(
      home.headers
        .getSetCookie()
        .some((c) => c.startsWith("pay=;") || /^pay=[^;]*;.*Max-Age=0/i.test(c) || /^pay=[^;]*;.*Expires=Thu, 01 Jan 1970/i.test(c)),
    ).toBe(true);
    expect(s.jar.has("pay")).toBe(false);
  });

  it("a declined payment lands on the payment-error page; retrying places a new order that can succeed", async () => {
    const s = await newShopper(db);
    const { hosted, orderNo } = await placeThroughPages(
      s,
      take(1).map((i) => i.id),
      "card",
    );
    const declined = await go(s.jar, hosted, { action: "decline" });
    const back = await go(s.jar, location(declined));
    expect(location(back)).toBe("/pay-error");
    const error = await (await go(s.jar, "/pay-error")).text();
    expect(error).toContain("An error occurred during the payment. The transaction cannot be completed. Please try again.");
    expect((await orderOf(orderNo)).status).toBe("failed");
    const retry = await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" });
    const second = decodeURIComponent(location(retry).split("/").pop() as string);
    expect(second).not.toBe(orderNo);
    await go(s.jar, location(await go(s.jar, location(retry), { action: "approve" })));
    expect((await orderOf(second)).status).toBe("complete");
    expect((await orderOf(orderNo)).status).toBe("failed");
  });

  it("abandoning at the gateway lands on /pay-cancel, and paying again continues the same order", async () => {
    const s = await newShopper(db);
    const { hosted, orderNo } = await placeThroughPages(
      s,
      take(1).map((i) => i.id),
      "phone",
    );
    const abandoned = await go(s.jar, hosted, { action: "abandon" });
    expect(location(abandoned)).toBe(`/pay-cancel?paymentId=${orderNo}`);
    expect((await go(s.jar, location(abandoned))).status).toBe(200);
    const again = await go(s.jar, "/pay03", { method: "phone", agreeTerms: "on", agreePaid: "on" });
    expect(location(again)).toBe(hosted);
    expect(await db.selectFrom("orders").select("id").where("user_id", "=", s.userId).execute()).toHaveLength(1);
  });

  it("switching method after abandoning closes the first attempt: approving its old window refunds, never charges twice", async () => {
    const s = await newShopper(db);
    const first = await placeThroughPages(
      s,
      take(1).map((i) => i.id),
      "card",
    );
    await go(s.jar, first.hosted, { action: "abandon" });
    const second = location(await go(s.jar, "/pay03", { method: "kakaopay", agreeTerms: "on", agreePaid: "on" }));
    expect(second).not.toBe(first.hosted);
    await go(s.jar, location(await go(s.jar, second, { action: "approve" })));
    expect((await orderOf(first.orderNo)).status).toBe("failed");
    // The payer goes back to the old window and approves it: the store refunds that payment at once.
    await go(s.jar, location(await go(s.jar, first.hosted, { action: "approve" })));
    await sandbox.settled();
    expect((await sandbox.find(first.orderNo))?.status).toBe("cancelled");
    const complete = await db
      .selectFrom("orders")
      .select("order_no")
      .where("user_id", "=", s.userId)
      .where("status", "=", "complete")
      .execute();
    expect(complete.map((o) => o.order_no)).toEqual([decodeURIComponent(second.split("/").pop() as string)]);
    expect(await (await go(s.jar, "/payComp")).text()).toContain(complete[0].order_no);
  });

  it("never fulfils a payment whose amount differs from the order's, and refunds it", async () => {
    const s = await newShopper(db);
    const { hosted, orderNo } = await placeThroughPages(
      s,
      take(1).map((i) => i.id),
      "card",
    );
    // Someone altered the amount on its way to the gateway.
    await db.updateTable("sandbox_payments").set({ amount: 100 }).where("id", "=", orderNo).execute();
    const back = await go(s.jar, location(await go(s.jar, hosted, { action: "approve" })));
    expect(location(back)).toBe("/pay-error");
    await sandbox.settled();
    const order = await orderOf(orderNo);
    expect(order.status).toBe("failed");
    expect(order.failure_message).toMatch(/amount mismatch/);
    expect((await sandbox.find(orderNo))?.status).toBe("cancelled");
    expect(
      await db
        .selectFrom("order_items")
        .select("expires_at")
        .where("order_id", "=", order.id)
        .where("expires_at", "is not", null)
        .execute(),
    ).toHaveLength(0);
  });

  it("refuses forged webhooks and settles real ones in any order and number", async () => {
    const forged = await call("/webhooks/payments/sandbox", {
      method: "POST",
      body: JSON.stringify({ type: "Transaction.Paid", data: { paymentId: "x" } }),
      headers: {
        "content-type": "application/json",
        "webhook-id": "msg_1",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,AAAA",
      },
    });
    expect(forged.status).toBe(400);
    expect(await db.selectFrom("payment_events").select("id").where("event_id", "=", "msg_1").execute()).toHaveLength(0);

    // Twenty settlements of one paid payment racing: one fulfilment, one pass.
    const s = await newShopper(db);
    const pass = await db.selectFrom("pass_prices").selectAll().where("contents_count", "=", 5).orderBy("id").executeTakeFirstOrThrow();
    const start = await go(s.jar, `/pay01?pass=${pass.id}`);
    expect(location(start)).toBe("/pay01");
    await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    const pay = await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" });
    const orderNo = decodeURIComponent(location(pay).split("/").pop() as string);
    await db
      .updateTable("sandbox_payments")
      .set({ status: "paid", paid: (await orderOf(orderNo)).total, paid_at: new Date().toISOString() })
      .where("id", "=", orderNo)
      .execute();
    const payment = await sandbox.getPayment(orderNo);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => settlePayment(db, sandbox, payment as NonNullable<typeof payment>)),
    );
    expect(new Set(outcomes)).toEqual(new Set(["complete"]));
    const passes = await db.selectFrom("passes").selectAll().where("user_id", "=", s.userId).execute();
    expect(passes).toHaveLength(1);
    expect(passes[0]).toMatchObject({ remaining: 5, total: 5, status: "available", license_id: s.licenseId });
    expect(await reconcileOpenOrders(db, call.payments)).toMatchObject({ changed: 0 });
    // Default view (status 2: available, sort 1: newest first) shows it; expired (3) does not.
    const list = await (await go(s.jar, "/mypage/passes")).text();
    expect(list).toContain("5 / 5");
    expect(list).toMatch(/aria-current="page"[^>]*>Available</);
    expect(await (await go(s.jar, "/mypage/passes?status=3")).text()).not.toContain("5 / 5");
    expect(await (await go(s.jar, "/mypage/passes?status=1&sort=2")).text()).toContain("5 / 5");
  });

  it("a virtual account waits for the deposit; paid in time it completes, unpaid past 23:59:59 KST the next day it is cancelled and removed", async () => {
    const s = await newShopper(db);
    const firstItems = take(1);
    const cartIds = async () =>
      (await db.selectFrom("carts").select("content_id").where("user_id", "=", s.userId).execute()).map((r) => r.content_id);
    const first = await placeThroughPages(
      s,
      firstItems.map((i) => i.id),
      "vbank",
    );
    expect(await cartIds()).toEqual(firstItems.map((i) => i.id));
    await go(s.jar, location(await go(s.jar, first.hosted, { action: "approve" })));
    let order = await orderOf(first.orderNo);
    expect(order.status).toBe("waiting");
    // Placed for good (issue 18, point 9): its items left the cart, as a card payment's do.
    expect(await cartIds()).toEqual([]);
    expect(order.vbank_account).toMatch(/^\d{13}$/);
    const due = new Date(order.vbank_due_at as string);
    expect(due.toISOString().slice(11, 19)).toBe("14:59:59");
    const done = await (await go(s.jar, "/payComp")).text();
    expect(done).toContain(order.vbank_account as string);
    expect(await (await go(s.jar, "/mypage/pay")).text()).toContain("Waiting for deposit");

    // Not yet due: the job leaves it. Past due: cancelled at the gateway and gone from the history.
    expect(await expireVirtualAccounts(db, call.payments, new Date(due.getTime() - 1000))).toEqual({ expired: 0, paidLate: 0 });
    const runs = await Promise.all([1, 2, 3].map(() => expireVirtualAccounts(db, call.payments, new Date(due.getTime() + 1000))));
    expect(runs.reduce((n, r) => n + r.expired, 0)).toBe(1);
    expect(await db.selectFrom("orders").select("id").where("order_no", "=", first.orderNo).execute()).toHaveLength(0);
    expect((await sandbox.find(first.orderNo))?.status).toBe("cancelled");
    // Expired unpaid: its items are back in the cart, once.
    expect(await cartIds()).toEqual(firstItems.map((i) => i.id));
    await db.deleteFrom("carts").where("user_id", "=", s.userId).execute();

    // A second one is deposited: complete.
    const second = await placeThroughPages(
      s,
      take(1).map((i) => i.id),
      "vbank",
    );
    await go(s.jar, location(await go(s.jar, second.hosted, { action: "approve" })));
    await go(s.jar, second.hosted, { action: "deposit" });
    await sandbox.settled();
    order = await orderOf(second.orderNo);
    expect(order.status).toBe("complete");
  });

  it("cancels within 7 days and not after; a virtual-account refund keeps back 10%; mobile phone only whole", async () => {
    const s = await newShopper(db);
    const buy = async (method: PayMethod, n: number) => {
      const placed = await placeThroughPages(
        s,
        take(n).map((i) => i.id),
        method,
      );
      await go(s.jar, location(await go(s.jar, placed.hosted, { action: "approve" })));
      if (method === "vbank") await go(s.jar, placed.hosted, { action: "deposit" });
      await sandbox.settled();
      return orderOf(placed.orderNo);
    };
    const card = await buy("card", 3);
    const lines = await db.selectFrom("order_items").selectAll().where("order_id", "=", card.id).orderBy("id").execute();
    const lineTotal = (l: (typeof lines)[number]) => l.unit_price - l.discount + l.vat;

    // A downloaded line cannot be cancelled.
    await db.updateTable("order_items").set({ first_downloaded_at: new Date().toISOString() }).where("id", "=", lines[2].id).execute();
    const refused = await go(s.jar, `/mypage/pay/${card.id}`, { line: String(lines[2].id), reason: "changed my mind" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Downloaded items cannot be cancelled.");

    const cancelled = await go(s.jar, `/mypage/pay/${card.id}`, { line: String(lines[0].id), reason: "changed my mind" });
    expect(cancelled.status).toBe(200);
    const after = await orderOf(card.order_no);
    expect(after).toMatchObject({ status: "partially_cancelled", cancel_quantity: 1, cancel_amount: lineTotal(lines[0]) });
    expect((await sandbox.find(card.order_no))?.cancelled).toBe(lineTotal(lines[0]));
    // The same line again: refused, nothing refunded twice.
    const twice = await go(s.jar, `/mypage/pay/${card.id}`, { line: String(lines[0].id), reason: "again" });
    expect(twice.status).toBe(409);
    expect((await sandbox.find(card.order_no))?.cancelled).toBe(lineTotal(lines[0]));

    // Eight days later: too late.
    await expect(
      cancelOrder(db, call.payments, {
        userId: s.userId,
        orderId: card.id,
        lineIds: [lines[1].id],
        reason: "late",
        locale: "en",
        now: new Date(Date.now() + 8 * DAY),
      }),
    ).rejects.toMatchObject({ code: "REFUND_WINDOW" } satisfies Partial<MarketError>);

    const vbank = await buy("vbank", 2);
    const noAccount = await go(s.jar, `/mypage/pay/${vbank.id}`, {
      line: (await db.selectFrom("order_items").select("id").where("order_id", "=", vbank.id).execute()).map((l) => String(l.id)),
      reason: "r",
    });
    expect(await noAccount.text()).toContain("Enter the bank, account number and holder for the refund.");
    const all = (await db.selectFrom("order_items").select("id").where("order_id", "=", vbank.id).execute()).map((l) => String(l.id));
    const refunded = await go(s.jar, `/mypage/pay/${vbank.id}`, {
      line: all,
      reason: "r",
      bank: "KOOKMIN",
      account: "1234567890",
      holder: "Buyer",
    });
    expect(refunded.status).toBe(200);
    const v = await orderOf(vbank.order_no);
    expect(v.status).toBe("cancelled");
    expect(v.refund_deduction).toBe(Math.round(vbank.total / 10));
    expect(v.cancel_amount).toBe(vbank.total - Math.round(vbank.total / 10));
    expect((await sandbox.find(vbank.order_no))?.cancelled).toBe(v.cancel_amount);

    const phone = await buy("phone", 2);
    const phoneLines = await db.selectFrom("order_items").select("id").where("order_id", "=", phone.id).execute();
    const partial = await go(s.jar, `/mypage/pay/${phone.id}`, { line: String(phoneLines[0].id), reason: "r" });
    expect(await partial.text()).toContain("Mobile phone payments cannot be partially refunded");
    const whole = await go(s.jar, `/mypage/pay/${phone.id}`, { line: phoneLines.map((l) => String(l.id)), reason: "r" });
    expect(whole.status).toBe(200);
    expect((await orderOf(phone.order_no)).status).toBe("cancelled");
  });

  it("a promotion coupon takes its percentage off at /pay01, once per account; a failed payment gives it back", async () => {
    const popup = await (await call("/tempPop", { headers: EN })).text();
    expect(popup).toContain("WELCOME20");
    expect(popup).toContain("20% off");
    expect(popup).toMatch(/<del><span class="visually-hidden">Regular price(<!-- -->)? <\/span>\$[\d,.]+<\/del>/);
    expect(popup).toContain("One coupon per ID.");

    const s = await newShopper(db);
    const [item] = take(1);
    const at = new Date().toISOString();
    const [line] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: item.id, level_flag: 1, created_at: at })
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: String(line.id) });
    const wrong = await go(s.jar, "/pay01", { intent: "apply", code: "NOPE" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("This coupon code is not valid.");
    const applied = await go(s.jar, "/pay01", { intent: "apply", code: " welcome20 " });
    expect(applied.status).toBe(200);
    const step1 = await (await go(s.jar, "/pay01")).text();
    expect(step1).toContain("Coupon WELCOME20 applied: 20% off.");
    await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    const declined = location(await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" }));
    await go(s.jar, declined, { action: "decline" });
    await sandbox.settled();
    // The declined order gave the coupon back: the retry still gets the discount.
    const retry = location(await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" }));
    await go(s.jar, location(await go(s.jar, retry, { action: "approve" })));
    const order = await db
      .selectFrom("orders")
      .selectAll()
      .where("user_id", "=", s.userId)
      .where("status", "=", "complete")
      .executeTakeFirstOrThrow();
    const discount = Math.round(item.price_krw * 0.2);
    expect(order).toMatchObject({
      coupon_code: "WELCOME20",
      discount,
      total: item.price_krw - discount + Math.round((item.price_krw - discount) / 10),
    });

    // The same account cannot use it again.
    const [again] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: take(1)[0].id, level_flag: 1, created_at: at })
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: String(again.id) });
    const used = await go(s.jar, "/pay01", { intent: "apply", code: "WELCOME20" });
    expect(used.status).toBe(409);
    expect(await used.text()).toContain("This coupon has already been used. One coupon per ID.");
  });

  it("a business representative's waiting purchase requests are counted in the header and by requests/count", async () => {
    const b = await newShopper(db, { userType: 2 });
    const now = Date.now();
    for (const [status, expires] of [
      ["waiting", now + 86_400_000],
      ["waiting", now + 86_400_000],
      ["waiting", now - 1000],
      ["paid", now + 86_400_000],
    ] as const)
      await db
        .insertInto("purchase_requests")
        .values({
          request_no: `REQ-${status}-${expires}-${Math.random()}`,
          owner_user_id: b.userId,
          license_id: b.licenseId,
          request_email: "k@example.com",
          message: "please",
          status,
          currency: "KRW",
          total: 1100,
          order_id: null,
          expires_at: new Date(expires).toISOString(),
          created_at: new Date(now).toISOString(),
        })
        .execute();
    const home = await (await go(b.jar, "/")).text();
    expect(home).toMatch(/data-testid="request-count">2 requests to pay</);
    const api = await call("/api/v1/requests/count", { headers: { authorizationToken: b.token } });
    expect(((await api.json()) as { data: { count: number } }).data.count).toBe(2);
    const member = await newShopper(db);
    expect(await (await go(member.jar, "/")).text()).not.toContain('data-testid="request-count"');
  });

  it("passes go in the cart from the pricing page, count in the cart, and are bought with content in one order", async () => {
    const s = await newShopper(db);
    const pass = await db.selectFrom("pass_prices").selectAll().where("contents_count", "=", 10).orderBy("id").executeTakeFirstOrThrow();
    const slug = "video";
    const added = await go(s.jar, "/cart", { intent: "addPass", pass: String(pass.id), redirectTo: `/price/${slug}` });
    expect(location(added)).toBe(`/price/${slug}?cart=SUCCESS`);
    expect(await (await go(s.jar, location(added))).text()).toContain("Added to cart");
    expect(location(await go(s.jar, "/cart", { intent: "addPass", pass: String(pass.id), redirectTo: "/cart" }))).toBe(
      "/cart?cart=ALREADY_HAVE_ITEM",
    );
    const [item] = take(1);
    const [line] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: item.id, level_flag: 1, created_at: new Date().toISOString() })
      .returning("id")
      .execute();
    const cart = await (await go(s.jar, "/cart")).text();
    expect(cart).toMatch(/data-testid="cart-count">2</);
    const passLine = await db.selectFrom("cart_passes").select("id").where("user_id", "=", s.userId).executeTakeFirstOrThrow();
    expect(cart).toMatch(new RegExp(`<input type="checkbox" name="pass_line"[^>]*value="${passLine.id}"`));
    // One order for both; paid, the pass is issued and both leave the cart.
    expect(location(await go(s.jar, "/cart", { intent: "buy", cart_id: String(line.id), pass_line: String(passLine.id) }))).toBe("/pay01");
    await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    const hosted = location(await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" }));
    await go(s.jar, location(await go(s.jar, hosted, { action: "approve" })));
    const order = await db.selectFrom("orders").selectAll().where("user_id", "=", s.userId).executeTakeFirstOrThrow();
    expect(order.status).toBe("complete");
    expect(order.total).toBe(item.price_krw + Math.round(item.price_krw / 10) + pass.price_krw + Math.round(pass.price_krw / 10));
    expect(await db.selectFrom("passes").select("remaining").where("user_id", "=", s.userId).execute()).toEqual([{ remaining: 10 }]);
    expect(await db.selectFrom("cart_passes").select("id").where("user_id", "=", s.userId).execute()).toHaveLength(0);
    expect(await db.selectFrom("carts").select("id").where("user_id", "=", s.userId).execute()).toHaveLength(0);
    // A visitor is sent to sign in first; a business account is refused.
    expect(location(await go(new Jar(), "/cart", { intent: "addPass", pass: String(pass.id), redirectTo: "/price/video" }))).toBe(
      `/login?redirectTo=${encodeURIComponent("/price/video")}`,
    );
    const b = await newShopper(db, { userType: 2 });
    expect(location(await go(b.jar, "/cart", { intent: "addPass", pass: String(pass.id), redirectTo: "/cart" }))).toBe(
      "/cart?cart=BUSINESS_PASS",
    );
    expect(await db.selectFrom("cart_passes").select("id").where("user_id", "=", b.userId).execute()).toHaveLength(0);
  });

  it("business accounts get the refusal for passes; guests are sent to sign in to buy", async () => {
    const b = await newShopper(db, { userType: 2 });
    const pass = await db.selectFrom("pass_prices").select("id").orderBy("id").executeTakeFirstOrThrow();
    await go(b.jar, `/pay01?pass=${pass.id}`);
    const page = await go(b.jar, "/pay01");
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("The service is for individual members.");

    const guest = new Jar();
    const res = await go(guest, "/cart", { intent: "buy", cart_id: "1" });
    expect(location(res)).toBe("/login?redirectTo=%2Fcart");
    expect(location(await go(guest, "/pay01"))).toMatch(/^\/\?redirect=requires-auth/);
  });
});
