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
    expect(list.json.data.list[0]).toMatchObject({
      order_no: order.order_no,
      status: "complete",
      quantity: 2,
      purchase_category: "member",
    });
    const detail = await api(`users/orders/${order.id}`, { headers: auth });
    expect(detail.json.data).toMatchObject({ order_no: order.order_no, cancellable: true, license: { serial: s.serial } });
    // Every field is snake_case (spec section 7), in the lines too.
    const keys = (v: unknown): string[] =>
      Array.isArray(v) ? v.flatMap(keys) : v && typeof v === "object" ? Object.entries(v).flatMap(([k, x]) => [k, ...keys(x)]) : [];
    expect(keys(list.json.data).filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(keys(detail.json.data).filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(detail.json.data.lines[0]).toHaveProperty("item_type");
    // The contents are named from the items in the caller's language: the first item and how many more.
    const firstItem = await db
      .selectFrom("order_items")
      .innerJoin("contents", "contents.id", "order_items.content_id")
      .select(["title_ko", "title_en"])
      .where("order_id", "=", order.id)
      .orderBy("order_items.id")
      .executeTakeFirstOrThrow();
    expect(list.json.data.list[0].name).toBe(`${firstItem.title_en} and 1 more`);
    const inKo = await api("users/orders", { headers: { ...auth, language: "ko" } });
    expect(inKo.json.data.list[0].name).toBe(`${firstItem.title_ko} 외 1건`);

    // The editor, without login: the licence's headers show the same payment; a wrong hw_info shows nothing.
    const editor = await api("users/orders", { headers: { license_id: s.serial, hw_info: s.hwInfo } });
    expect(editor.json.data.list.map((o: { order_no: string }) => o.order_no)).toEqual([order.order_no]);
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
      expect.objectContaining({ remaining: 10, total: 10, status: "available", valid_days: pass.valid_days }),
    ]);
    // A pass order is named by its pass in the caller's language, from its items, not by its raw group.
    const group = { 1: ["Icon pass", "아이콘 이용권"], 2: ["Video pass", "영상 이용권"] } as Record<number, [string, string]>;
    const auth = { authorizationToken: s.token };
    const en = await api("users/orders", { headers: auth });
    const ko = await api("users/orders", { headers: { ...auth, language: "ko" } });
    const enName = en.json.data.list[0].name as string;
    const koName = ko.json.data.list[0].name as string;
    expect(enName).toMatch(/ · 10$/);
    expect(koName).toMatch(/ · 10$/);
    expect(enName).not.toBe(koName);
    if (group[pass.contents_flag]) {
      expect(enName).toBe(`${group[pass.contents_flag][0]} · 10`);
      expect(koName).toBe(`${group[pass.contents_flag][1]} · 10`);
    }
    const detail = await api(`users/orders/${en.json.data.list[0].id}`, { headers: { ...auth, language: "ko" } });
    expect(detail.json.data.name).toBe(koName);
    expect((await api("users/passes?status=nope", { headers: { authorizationToken: s.token } })).status).toBe(400);
  });
});
