/**
 * The sandbox gateway's hosted payment page (/sandbox/pay/{id}, test mode) shows and acts only for the order's
 * own buyer: the member who placed it, or for an order placed with a licence key, that licence. Anyone else,
 * an unknown payment, and every request when the store runs the live gateways get 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { Jar, newShopper } from "../support/shopper";

type Shopper = Awaited<ReturnType<typeof newShopper>>;
type App = Awaited<ReturnType<typeof createTestApp>>;

describe(`the sandbox payment page on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: App;
  let live: App;
  let sandbox: SandboxGateway;
  let paid: { id: number }[];
  let next = 0;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    live = await createTestApp(db, {
      dataDir: t.dataDir,
      env: { PAYMENT_GATEWAY: "live", PAYPAL_CLIENT_ID: "client", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_WEBHOOK_ID: "hook" },
    });
    sandbox = call.payments.sandbox as SandboxGateway;
    paid = await db
      .selectFrom("contents")
      .select("id")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .limit(50)
      .execute();
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  async function place(s: Shopper) {
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: s.userId, userType: 1, email: s.email },
      items: [{ kind: "content", id: paid[next++].id }],
      license: { licenseId: s.licenseId },
      method: "card",
      locale: "en",
      idempotencyKey: `${s.userId}:${next}`,
      origin: "http://store.test",
    });
    return { orderNo: placed.orderNo, page: `/sandbox/pay/${encodeURIComponent(placed.orderNo)}` };
  }
  const get = (app: App, path: string, headers: Record<string, string> = {}) =>
    app(path, { headers: { "accept-language": "en", ...headers } });
  const post = (app: App, path: string, action: string, headers: Record<string, string> = {}) =>
    app(path, {
      method: "POST",
      body: new URLSearchParams({ action }),
      headers: { "accept-language": "en", "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  const statusOf = async (orderNo: string) => (await sandbox.find(orderNo))?.status;

  it("an unknown payment is 404, shown or acted on", async () => {
    const s = await newShopper(db);
    const page = "/sandbox/pay/MKT-20990101-00000000";
    expect((await get(call, page, { cookie: s.jar.header })).status).toBe(404);
    expect((await post(call, page, "approve", { cookie: s.jar.header })).status).toBe(404);
    expect((await post(call, page, "approve")).status).toBe(404);
  });

  it("another member and an anonymous visitor get 404 and cannot approve or decline", async () => {
    const buyer = await newShopper(db);
    const other = await newShopper(db);
    const { orderNo, page } = await place(buyer);
    for (const jar of [other.jar, new Jar()]) {
      expect((await get(call, page, { cookie: jar.header })).status).toBe(404);
      for (const action of ["approve", "decline", "abandon"])
        expect((await post(call, page, action, { cookie: jar.header })).status, action).toBe(404);
    }
    // The licence of the buyer does not stand for the member who placed the order.
    expect((await get(call, page, { license_id: buyer.serial, hw_info: buyer.hwInfo })).status).toBe(404);
    expect(await statusOf(orderNo)).toBe("ready");
  });

  it("the buyer sees the page and approves: the order is paid", async () => {
    const buyer = await newShopper(db);
    const { orderNo, page } = await place(buyer);
    const shown = await get(call, page, { cookie: buyer.jar.header });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("TEST MODE");
    const approved = await post(call, page, "approve", { cookie: buyer.jar.header });
    expect(approved.status).toBe(302);
    expect(approved.headers.get("location")).toContain(`/pay/return?gateway=sandbox&paymentId=${orderNo}`);
    await sandbox.settled();
    expect(await statusOf(orderNo)).toBe("paid");
    expect((await db.selectFrom("orders").select("status").where("order_no", "=", orderNo).executeTakeFirstOrThrow()).status).toBe(
      "complete",
    );
  });

  it("an order placed with a licence key is the licence's: its headers open the page, another licence's do not", async () => {
    const buyer = await newShopper(db);
    const stranger = await newShopper(db);
    const { orderNo, page } = await place(buyer);
    await db.updateTable("orders").set({ user_id: null }).where("order_no", "=", orderNo).execute();
    const mine = { license_id: buyer.serial, hw_info: buyer.hwInfo };
    expect((await get(call, page, mine)).status).toBe(200);
    expect((await get(call, page, { license_id: stranger.serial, hw_info: stranger.hwInfo })).status).toBe(404);
    expect((await get(call, page, { license_id: buyer.serial, hw_info: "HW-OTHER" })).status).toBe(404);
    // A signed-in member without the licence gets nothing either.
    expect((await get(call, page, { cookie: stranger.jar.header })).status).toBe(404);
    expect((await post(call, page, "decline", mine)).status).toBe(302);
    expect(await statusOf(orderNo)).toBe("failed");
  });

  it("with the live gateways the page and its actions are 404 even for the buyer", async () => {
    const buyer = await newShopper(db);
    const { orderNo, page } = await place(buyer);
    expect((await get(live, page, { cookie: buyer.jar.header })).status).toBe(404);
    expect((await post(live, page, "approve", { cookie: buyer.jar.header })).status).toBe(404);
    expect(await statusOf(orderNo)).toBe("ready");
  });
});
