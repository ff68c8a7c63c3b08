import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

describe(`payments and orders API on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  const api = async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const res = await call(`/api/v1/${path}`, {
      method: init.method ?? "GET",
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      headers: { "content-type": "application/json", language: "en", ...init.headers },
    });
    return { status: res.status, json: (await res.json()) as { result: { code: number; message: string }; data: any } };
  };

  it("places an order for the signed-in member, idempotently, and answers where the payer goes", async () => {
    const s = await newShopper(db);
    const auth = { authorizationToken: s.token };
    const items = await db
      .selectFrom("contents")
      .select(["id", "price_usd"])
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .limit(2)
      .execute();
    const body = {
      items: items.map((i) => ({ kind: "content", id: i.id })),
      license_id: s.licenseId,
      method: "paypal",
      agree_terms: true,
      agree_paid: true,
      idempotency_key: "checkout-0001",
    };
    expect((await api("payments", { method: "POST", body })).status).toBe(401);
    const bad = await api("payments", { method: "POST", body: { ...body, agree_paid: false }, headers: auth });
    expect(bad.status).toBe(400);
    expect(bad.json.result.message).toMatch(/^agree_paid: agree to the paid-service terms/);
    const notJson = await call("/api/v1/payments", { method: "POST", body: "{", headers: { ...auth, "content-type": "application/json" } });
    expect(notJson.status).toBe(400);

    const first = await api("payments", { method: "POST", body, headers: auth });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ state: "SUCCESS", checkout: { kind: "redirect" } });
    const again = await api("payments", { method: "POST", body, headers: auth });
    expect(again.json.data.order_no).toBe(first.json.data.order_no);
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", first.json.data.order_no).executeTakeFirstOrThrow();
    // PayPal charges USD: the server priced the order in cents from the catalog, VAT included.
    expect(order.currency).toBe("USD");
    expect(order.total).toBe(items.reduce((n, i) => n + i.price_usd + Math.round(i.price_usd / 10), 0));

    await sandbox.act(order.order_no, "approve");
    await sandbox.settled();
    const list = await api("users/orders", { headers: auth });
    expect(list.json.data.total_count).toBe(1);
    expect(list.json.data.list[0]).toMatchObject({ orderNo: order.order_no, status: "complete", quantity: 2 });
    const detail = await api(`users/orders/${order.id}`, { headers: auth });
    expect(detail.json.data).toMatchObject({ orderNo: order.order_no, cancellable: true, license: { serial: s.serial } });

    // The editor, without login: the licence's headers show the same payment; a wrong hw_info shows nothing.
    const editor = await api("users/orders", { headers: { license_id: s.serial, hw_info: s.hwInfo } });
    expect(editor.json.data.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([order.order_no]);
    expect((await api(`users/orders/${order.id}`, { headers: { license_id: s.serial, hw_info: s.hwInfo } })).status).toBe(200);
    expect((await api("users/orders", { headers: { license_id: s.serial, hw_info: "HW-OTHER" } })).status).toBe(403);
    expect((await api("users/orders")).status).toBe(401);

    // Another member cannot read it.
    const other = await newShopper(db);
    expect((await api(`users/orders/${order.id}`, { headers: { authorizationToken: other.token } })).status).toBe(404);
    expect((await api("users/orders/abc", { headers: auth })).status).toBe(400);
  });

  it("lists passes with their remaining count", async () => {
    const s = await newShopper(db);
    const pass = await db.selectFrom("pass_prices").selectAll().where("contents_count", "=", 10).orderBy("id").executeTakeFirstOrThrow();
    const placed = await api("payments", {
      method: "POST",
      body: {
        items: [{ kind: "pass", id: pass.id }],
        license_id: s.licenseId,
        method: "card",
        agree_terms: true,
        agree_paid: true,
        idempotency_key: "pass-checkout-1",
      },
      headers: { authorizationToken: s.token },
    });
    await sandbox.act(placed.json.data.order_no, "approve");
    await sandbox.settled();
    const passes = await api("users/passes", { headers: { authorizationToken: s.token } });
    expect(passes.json.data.list).toEqual([
      expect.objectContaining({ remaining: 10, total: 10, status: "available", validDays: pass.valid_days }),
    ]);
    expect((await api("users/passes?status=nope", { headers: { authorizationToken: s.token } })).status).toBe(400);
  });
});
