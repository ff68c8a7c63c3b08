/**
 * The key-only user's pages, as a browser without JavaScript uses them: from the anonymous cart, a purchase request
 * (key lookup → request form → /requestComp) and a direct purchase by key (/pay01 → /pay-key → /pay03 → the
 * gateway → /payComp), each form keeping what was typed on error and saying the spec's messages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { DEMO_REQUESTS } from "../../app/db/seed/requests";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { Jar } from "../support/shopper";

describe(`key-only users' pages on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number; code: string }[];
  let next = 0;
  const take = (n: number) => {
    const out = paid.slice(next, next + n);
    next += n;
    return out;
  };
  let ipNo = 10;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    paid = await db
      .selectFrom("contents")
      .select(["id", "code"])
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .where("contents_type", "in", ["video", "icon"])
      .orderBy("id", "desc")
      .limit(40)
      .execute();
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  /** One visitor: a cookie jar, an address and a language. */
  function visitor(lang: "en" | "ko" = "en") {
    const jar = new Jar({ lng: lang });
    const ip = `198.51.100.${ipNo++}`;
    const go = async (path: string, form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      return jar.take(
        await call(path, {
          method: form ? "POST" : "GET",
          body: form ? body : undefined,
          ip,
          headers: {
            cookie: jar.header,
            ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
          },
        }),
      );
    };
    return { jar, go };
  }
  const text = (res: Response) => res.text();
  const location = (res: Response) => (res.headers.get("location") ?? "").replace(/^http:\/\/store\.test/, "");

  /** Puts items in the visitor's anonymous cart and answers their cart line ids. */
  async function fill(v: ReturnType<typeof visitor>, items: { code: string }[]) {
    for (const i of items) expect((await v.go("/cart", { intent: "add", code: i.code, redirectTo: "/cart" })).status).toBe(302);
    const page = await text(await v.go("/cart"));
    return [...page.matchAll(/name="cart_id" id="cart-(\d+)"/g)].map((m) => m[1]);
  }

  it("a key-only user sends a purchase request from the cart: key lookup, the form, the quote link", async () => {
    const v = visitor("en");
    const items = take(2);
    const lines = await fill(v, items);
    expect(lines).toHaveLength(2);
    const cart = await text(await v.go("/cart"));
    expect(cart).toContain("Request purchase");
    const start = await v.go("/cart", { intent: "request", cart_id: lines });
    expect(location(start)).toBe("/pay-key");
    expect((await v.go("/pay-key")).status).toBe(200);

    const individual = await v.go("/pay-key", { serial: DEMO.licenses.individual.serial, email: DEMO.member.email });
    expect(individual.status).toBe(409);
    const refused = await text(individual);
    expect(refused).toContain("This license key is for individual members or non-members. Please check again.");
    expect(refused).toContain(`value="${DEMO.licenses.individual.serial}"`);
    expect(await text(await v.go("/pay-key", { serial: "VEDT-NOPE-0001", email: "a@example.com" }))).toContain(
      "No license key with this information found. Please check again.",
    );
    expect(
      await text(await v.go("/pay-key", { serial: DEMO_REQUESTS.outsiderKey.serial, email: DEMO_REQUESTS.outsiderKey.email })),
    ).toContain("has not joined the market");
    const badEmail = await v.go("/pay-key", { serial: DEMO.licenses.b2bg.serial, email: "not-an-email" });
    expect(badEmail.status).toBe(400);
    expect(await text(badEmail)).toContain("Enter a valid email address");

    const found = await v.go("/pay-key", { serial: DEMO.licenses.b2bg.serial, email: "editor1@studio.example" });
    expect(location(found)).toBe("/request");
    const form = await text(await v.go("/request"));
    expect(form).toContain("Write the request");
    expect(form).toContain(DEMO.licenses.b2bg.serial);

    const long = "x".repeat(101);
    const tooLong = await v.go("/request", { request_email: "kim@studio.example", message: long });
    expect(tooLong.status).toBe(400);
    const kept = await text(tooLong);
    expect(kept).toContain("The message can be up to 100 characters.");
    expect(kept).toContain('value="kim@studio.example"');
    expect(kept).toContain(long);
    const noEmail = await text(await v.go("/request", { request_email: "", message: "Studio, Kim" }));
    expect(noEmail).toContain("Please enter your email");
    expect(noEmail).toContain("Studio, Kim");

    const sent = await v.go("/request", { request_email: "kim@studio.example", message: "Demo Studio, Kim" });
    // The requested items left the cart (issue 24, point 5), and the page says so.
    expect(location(sent)).toBe("/requestComp");
    const done = await text(await v.go("/requestComp"));
    expect(done).toContain("2 requested items left your cart.");
    const no = /REQ-\d{8}-[0-9A-F]{8}/.exec(done)?.[0];
    expect(no).toBeTruthy();
    const quote = /href="(\/mypage\/estimate\?token=[A-Za-z0-9_-]+)"/.exec(done)?.[1];
    expect(quote).toBeTruthy();
    const row = await db
      .selectFrom("purchase_requests")
      .selectAll()
      .where("request_no", "=", no as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ request_email: "kim@studio.example", message: "Demo Studio, Kim", status: "waiting", currency: "USD" });
    const requested = await db.selectFrom("purchase_request_items").select("content_id").where("request_id", "=", row.id).execute();
    expect(requested.map((r) => r.content_id).sort()).toEqual(items.map((i) => i.id).sort());
    // The session holds the request now: the form does not send it twice.
    expect(location(await v.go("/request", { request_email: "kim@studio.example", message: "again" }))).toBe("/requestComp");
  });

  it("a key-only user buys directly with the key and its e-mail, without signing in; the order is the key's", async () => {
    const v = visitor("ko");
    const items = take(2);
    const lines = await fill(v, items);
    const start = await v.go("/cart", { intent: "direct", cart_id: lines });
    expect(location(start)).toBe("/pay01");
    const step1 = await text(await v.go("/pay01"));
    expect(step1).not.toContain('name="code"');
    expect(location(await v.go("/pay02"))).toBe("/pay-key");
    expect(location(await v.go("/pay03"))).toBe("/pay-key");
    const found = await v.go("/pay-key", { serial: DEMO.licenses.b2bg.serial.toLowerCase(), email: "Editor1@studio.example" });
    expect(location(found)).toBe("/pay03");
    const methods = await text(await v.go("/pay03"));
    expect(methods).toContain(DEMO.licenses.b2bg.serial);
    const pay = await v.go("/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" });
    const hosted = location(pay);
    expect(hosted).toMatch(/^\/sandbox\/pay\/MKT-/);
    const orderNo = decodeURIComponent(hosted.split("/").pop() as string);
    // The sandbox page belongs to this checkout; another visitor gets 404.
    expect((await visitor().go(hosted)).status).toBe(404);
    expect((await v.go(hosted)).status).toBe(200);
    const approved = await v.go(hosted, { action: "approve" });
    expect(location(await v.go(location(approved)))).toBe("/payComp");
    const done = await text(await v.go("/payComp"));
    expect(done).toContain(orderNo);
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();
    const key = await db.selectFrom("licenses").select("id").where("serial", "=", DEMO.licenses.b2bg.serial).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: "complete", purchase_category: "direct", user_id: null, license_id: key.id, currency: "KRW" });
    // It shows in the editor's history of that key.
    const history = await text(
      await call("/mypage/sw/pay", { headers: { license_id: DEMO.licenses.b2bg.serial, hw_info: DEMO.licenses.b2bg.hw_info } }),
    );
    expect(history).toContain(orderNo);
  });

  it("in the editor's webview the key comes from its headers: the cart's items are requested without typing the key", async () => {
    const v = visitor("en");
    const items = take(2);
    const lines = await fill(v, items);
    const editor = { license_id: DEMO_REQUESTS.secondKey.serial, hw_info: DEMO_REQUESTS.secondKey.hw_info };
    const sw = async (form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, x] of Object.entries(form ?? {})) for (const y of Array.isArray(x) ? x : [x]) body.append(k, y);
      return call("/mypage/sw/request", {
        method: form ? "POST" : "GET",
        body: form ? body : undefined,
        headers: { ...editor, cookie: v.jar.header, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      });
    };
    const page = await text(await sw());
    expect(page).toContain("Items to request");
    expect(page).not.toContain('name="serial"');
    const bad = await sw({ cart_id: lines, request_email: "lee@studio", message: "Studio, Lee" });
    expect(bad.status).toBe(400);
    expect(await text(bad)).toContain("Enter a valid email address");
    const sent = await text(await sw({ cart_id: lines.slice(0, 1), request_email: "lee@studio.example", message: "Studio, Lee" }));
    const no = /REQ-\d{8}-[0-9A-F]{8}/.exec(sent)?.[0];
    expect(no).toBeTruthy();
    const row = await db
      .selectFrom("purchase_requests")
      .selectAll()
      .where("request_no", "=", no as string)
      .executeTakeFirstOrThrow();
    const key = await db.selectFrom("licenses").select("id").where("serial", "=", DEMO_REQUESTS.secondKey.serial).executeTakeFirstOrThrow();
    expect(row.license_id).toBe(key.id);
    expect(await db.selectFrom("purchase_request_items").select("content_id").where("request_id", "=", row.id).execute()).toHaveLength(1);
    // An individual member's editor has no one to ask.
    const individual = await call("/mypage/sw/request", {
      headers: { license_id: DEMO.licenses.individual.serial, hw_info: DEMO.licenses.individual.hw_info },
    });
    expect(await text(individual)).toContain("This license key is for individual members or non-members. Please check again.");
  });

  it("the representative pays a request through the payment steps; the requester's key holds the items; paying again is refused", async () => {
    const v = visitor("ko");
    const login = await v.go("/login", { email: DEMO.business.email, password: DEMO.password });
    expect(login.status).toBe(302);
    const waiting = await db
      .selectFrom("purchase_requests")
      .select(["id", "license_id", "total"])
      .where("request_no", "=", "REQ-DEMO-0001")
      .executeTakeFirstOrThrow();
    const start = await v.go("/mypage/purchase", { intent: "pay", request: String(waiting.id) });
    expect(location(start)).toBe("/pay01");
    const step1 = await text(await v.go("/pay01"));
    expect(step1).not.toContain('name="code"');
    expect(location(await v.go("/pay02"))).toBe("/pay03");
    const methods = await text(await v.go("/pay03"));
    expect(methods).toContain('value="card"');
    expect(methods).not.toContain('value="paypal"');
    expect((await v.go("/pay03", { method: "paypal", agreeTerms: "on", agreePaid: "on" })).status).toBe(400);
    const pay = await v.go("/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" });
    const hosted = location(pay);
    expect(hosted).toMatch(/^\/sandbox\/pay\/MKT-/);
    const orderNo = decodeURIComponent(hosted.split("/").pop() as string);
    expect(location(await v.go(location(await v.go(hosted, { action: "approve" }))))).toBe("/payComp");
    expect(await text(await v.go("/payComp"))).toContain(orderNo);
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: "complete", purchase_category: "request", license_id: waiting.license_id, total: waiting.total });
    const row = await db
      .selectFrom("purchase_requests")
      .select(["status", "order_id"])
      .where("id", "=", waiting.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "paid", order_id: order.id });
    // The editor of the requester's key sees the payment.
    const history = await text(
      await call("/mypage/sw/pay", { headers: { license_id: DEMO.licenses.b2bg.serial, hw_info: DEMO.licenses.b2bg.hw_info } }),
    );
    expect(history).toContain(orderNo);
    const again = await v.go("/mypage/purchase", { intent: "pay", request: String(waiting.id) });
    expect(await text(again)).toMatch(/Payment is already completed for this request\.|이미 결제가 완료된 요청입니다\./);
  });

  it("without a checkout the business pages say the session expired", async () => {
    const v = visitor();
    for (const path of ["/pay-key", "/request", "/requestComp"]) expect(location(await v.go(path))).toBe("/?notice=session-expired");
  });
});
