/**
 * Business customers (spec sections 1, 4-8): the key lookup with its messages, purchase requests and their quotes,
 * the representative paying them (once, however many sessions pay at the same time), and a key-only direct
 * purchase bound to the key, through the domain and the section-7 API.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { DEMO_REQUESTS } from "../../app/db/seed/requests";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { MarketError } from "../../app/market/errors";
import { resolveLinks } from "../../app/market/mail/worker.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import { type BusinessKey, lookupBusinessKey } from "../../app/market/requests/lookup.server";
import {
  countOpenRequests,
  createPurchaseRequest,
  deleteRequests,
  listRequests,
  quoteByToken,
  requestDetail,
} from "../../app/market/requests/requests.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

describe(`business customers on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number; code: string; price_krw: number }[];
  let next = 0;
  const take = (n: number) => {
    const out = paid.slice(next, next + n);
    next += n;
    return out;
  };
  let rep: { id: number; email: string };
  let key: BusinessKey;
  const ip = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    paid = await db
      .selectFrom("contents")
      .select(["id", "code", "price_krw"])
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .where("contents_type", "!=", "package")
      .orderBy("id", "desc")
      .limit(120)
      .execute();
    const user = await db.selectFrom("users").select(["id", "email"]).where("email", "=", DEMO.business.email).executeTakeFirstOrThrow();
    rep = user;
    key = await lookupBusinessKey(db, { serial: DEMO.licenses.b2bg.serial, email: "editor1@studio.example", ip: ip() });
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  const refusal = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (error) {
      if (error instanceof MarketError) return error.code;
      throw error;
    }
    return "accepted";
  };

  async function request(contentIds: number[], now?: Date) {
    return createPurchaseRequest(db, {
      key,
      requestEmail: "requester@studio.example",
      message: "Demo Studio, Kim: for next week's delivery",
      contentIds,
      locale: "ko",
      origin: "http://store.test",
      ip: ip(),
      now,
    });
  }

  async function payRequests(requestIds: number[], idem: string) {
    return placeOrder(db, call.payments, {
      buyer: { id: rep.id, userType: 2, email: rep.email },
      purchase: { category: "request", requestIds },
      items: [],
      license: {},
      method: "card",
      locale: "ko",
      idempotencyKey: `${rep.id}:${idem}`,
      origin: "http://store.test",
    });
  }
  async function approve(orderNo: string) {
    await sandbox.act(orderNo, "approve");
    await sandbox.settled();
  }
  const orderOf = (orderNo: string) => db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();

  it("looks a key up by its licensing e-mail, with the spec's message for each refusal", async () => {
    expect(key.ownerUserId).toBe(rep.id);
    const look = (serial: string, email: string) => refusal(lookupBusinessKey(db, { serial, email, ip: ip() }));
    expect(await look(DEMO.licenses.b2bg.serial.toLowerCase(), " EDITOR1@studio.example ")).toBe("accepted");
    expect(await look(DEMO.licenses.individual.serial, DEMO.member.email)).toBe("KEY_NOT_BUSINESS");
    expect(await look(DEMO.licenses.nonmember.serial, "guest@example.com")).toBe("KEY_NOT_BUSINESS");
    // A wrong e-mail says exactly what an unknown key says: the lookup tells a stranger nothing.
    expect(await look(DEMO.licenses.individual.serial, "someone@example.com")).toBe("KEY_NOT_FOUND");
    expect(await look(DEMO.licenses.b2bg.serial, "someone@example.com")).toBe("KEY_NOT_FOUND");
    expect(await look("VEDT-NOPE-0000", "editor1@studio.example")).toBe("KEY_NOT_FOUND");
    expect(await look(DEMO_REQUESTS.outsiderKey.serial, DEMO_REQUESTS.outsiderKey.email)).toBe("KEY_OWNER_NOT_MEMBER");
  });

  it("limits failed lookups per address, while found keys do not count", async () => {
    const from = "192.0.2.77";
    for (let i = 0; i < 25; i++)
      expect(await refusal(lookupBusinessKey(db, { serial: DEMO.licenses.b2bg.serial, email: "editor1@studio.example", ip: from }))).toBe(
        "accepted",
      );
    const codes: string[] = [];
    for (let i = 0; i < 21; i++)
      codes.push(await refusal(lookupBusinessKey(db, { serial: `VEDT-X-${i}`, email: "x@example.com", ip: from })));
    expect(codes.slice(0, 20).every((c) => c === "KEY_NOT_FOUND")).toBe(true);
    expect(codes[20]).toBe("TOO_MANY_REQUESTS");
  });

  it("records a request with its quote link valid 30 days and mails the representative and the requester", async () => {
    const items = take(2);
    const before = await countOpenRequests(db, rep.id);
    const outboxBefore = Number(
      (
        await db
          .selectFrom("mail_outbox")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const made = await request(items.map((i) => i.id));
    expect(made.currency).toBe("KRW");
    const vat = (n: number) => Math.round(n / 10);
    expect(made.total).toBe(items.reduce((n, i) => n + i.price_krw + vat(i.price_krw), 0));
    expect(await countOpenRequests(db, rep.id)).toBe(before + 1);
    const mails = await db.selectFrom("mail_outbox").selectAll().orderBy("id", "desc").limit(2).execute();
    expect(
      Number(
        (
          await db
            .selectFrom("mail_outbox")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(outboxBefore + 2);
    expect(mails.map((m) => m.to_address).sort()).toEqual([DEMO.business.email, "requester@studio.example"].sort());
    const token = made.quotePath.split("token=")[1];
    // Links are written against the public address the mail worker fills in when it delivers.
    for (const m of mails)
      expect(resolveLinks(m.body_text, "http://store.test")).toContain(`http://store.test/mypage/estimate?token=${token}`);
    expect(mails.every((m) => m.status === "queued" && m.body_html?.includes("<h1"))).toBe(true);
    // The token is not stored, only its hash.
    const row = await db.selectFrom("purchase_requests").selectAll().where("id", "=", made.id).executeTakeFirstOrThrow();
    expect(row.quote_token_hash).not.toContain(token);
    const quote = await quoteByToken(db, token, "en");
    expect(quote?.request_no).toBe(made.requestNo);
    expect(quote?.items.map((i) => i.content_id)).toEqual(items.map((i) => i.id));
    expect(await quoteByToken(db, `${token.slice(0, -2)}xx`, "en")).toBeNull();
    expect(await quoteByToken(db, token, "en", new Date(Date.now() + 31 * 86_400_000))).toBeNull();
  });

  it("lists the representative's requests 20 a page by state and date, and only theirs", async () => {
    const list = await listRequests(db, rep.id, { offset: 0, limit: 20 }, "en");
    const states = new Set(list.list.map((r) => r.state));
    expect(states).toEqual(new Set(["waiting", "expired", "paid"]));
    const expired = await listRequests(db, rep.id, { offset: 0, limit: 20, state: "expired" }, "en");
    expect(expired.list.map((r) => r.request_no)).toContain("REQ-DEMO-0003");
    expect(expired.list.every((r) => r.state === "expired")).toBe(true);
    const recent = await listRequests(
      db,
      rep.id,
      { offset: 0, limit: 20, from: new Date(Date.now() - 5 * 86_400_000).toISOString() },
      "en",
    );
    expect(recent.list.map((r) => r.request_no)).not.toContain("REQ-DEMO-0002");
    const other = await newShopper(db, { userType: 2 });
    expect((await listRequests(db, other.userId, { offset: 0, limit: 20 }, "en")).total_count).toBe(0);
    expect(await requestDetail(db, other.userId, list.list[0].id, "en")).toBeNull();
  });

  it("the representative pays a request for the requester's key; it cannot be paid again; the key holds the items", async () => {
    const items = take(2);
    const made = await request(items.map((i) => i.id));
    const placed = await payRequests([made.id], "pay-once");
    await approve(placed.orderNo);
    const order = await orderOf(placed.orderNo);
    expect(order).toMatchObject({
      status: "complete",
      purchase_category: "request",
      license_id: key.licenseId,
      user_id: rep.id,
      total: made.total,
    });
    const detail = await requestDetail(db, rep.id, made.id, "en");
    expect(detail?.state).toBe("paid");
    expect(detail?.order_no).toBe(placed.orderNo);
    expect(await refusal(payRequests([made.id], "pay-again"))).toBe("REQUEST_PAID");
    const held = await db
      .selectFrom("order_items")
      .innerJoin("orders", "orders.id", "order_items.order_id")
      .select("order_items.content_id")
      .where("orders.license_id", "=", key.licenseId)
      .where("orders.status", "=", "complete")
      .execute();
    expect(held.map((h) => h.content_id)).toEqual(expect.arrayContaining(items.map((i) => i.id)));
  });

  it("an expired request cannot be paid", async () => {
    const made = await request(
      take(1).map((i) => i.id),
      new Date(Date.now() - 31 * 86_400_000),
    );
    expect((await requestDetail(db, rep.id, made.id, "en"))?.state).toBe("expired");
    expect(await refusal(payRequests([made.id], "expired"))).toBe("REQUEST_EXPIRED");
  });

  it("two representatives' sessions paying one request at once: paid once, the other payment refunded", async () => {
    const made = await request(take(1).map((i) => i.id));
    const placed = await Promise.all(Array.from({ length: 6 }, (_, i) => payRequests([made.id], `race-${i}`)));
    await Promise.all(placed.map((p) => sandbox.act(p.orderNo, "approve")));
    await sandbox.settled();
    const orders = await Promise.all(placed.map((p) => orderOf(p.orderNo)));
    expect(orders.filter((o) => o.status === "complete")).toHaveLength(1);
    expect(orders.filter((o) => o.status === "failed")).toHaveLength(5);
    for (const o of orders.filter((x) => x.status === "failed")) {
      const payment = await sandbox.find(o.order_no);
      expect(payment?.cancelled, `refund of ${o.order_no}`).toBe(payment?.paid);
    }
    const row = await db.selectFrom("purchase_requests").selectAll().where("id", "=", made.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("paid");
    expect(row.order_id).toBe(orders.find((o) => o.status === "complete")?.id);
  });

  it("items discontinued since the request are left out; items repriced lower charge the lower price", async () => {
    const [a, b, c] = take(3);
    const made = await request([a.id, b.id, c.id]);
    await db.updateTable("contents").set({ status: "discontinued" }).where("id", "=", a.id).execute();
    await db
      .updateTable("contents")
      .set({ price_krw: b.price_krw - 100 })
      .where("id", "=", b.id)
      .execute();
    await db
      .updateTable("contents")
      .set({ price_krw: c.price_krw + 5000 })
      .where("id", "=", c.id)
      .execute();
    const detail = await requestDetail(db, rep.id, made.id, "en");
    expect(detail?.items.map((i) => [i.discontinued, i.repriced, i.payable_price])).toEqual([
      [true, false, null],
      [false, true, b.price_krw - 100],
      [false, true, c.price_krw],
    ]);
    const placed = await payRequests([made.id], "repriced");
    const order = await orderOf(placed.orderNo);
    expect(order.amount).toBe(b.price_krw - 100 + c.price_krw);
    expect(detail?.payable.total).toBe(order.total);
  });

  it("the representative deletes requests from the list; another account's are untouched", async () => {
    const made = await request(take(1).map((i) => i.id));
    const other = await newShopper(db, { userType: 2 });
    expect(await deleteRequests(db, other.userId, [made.id])).toBe(0);
    expect(await deleteRequests(db, rep.id, [made.id])).toBe(1);
    expect(await requestDetail(db, rep.id, made.id, "en")).toBeNull();
    expect(await refusal(payRequests([made.id], "deleted"))).toBe("REQUEST_NOT_FOUND");
  });

  it("a key-only user buys directly: the order is bound to the key, without a member", async () => {
    const items = take(2);
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: null, userType: 2, email: key.email },
      purchase: { category: "direct", key },
      items: items.map((i) => ({ kind: "content" as const, id: i.id })),
      license: {},
      method: "card",
      locale: "ko",
      idempotencyKey: `key:${key.licenseId}:${randomBytes(4).toString("hex")}`,
      origin: "http://store.test",
    });
    await approve(placed.orderNo);
    const order = await orderOf(placed.orderNo);
    expect(order).toMatchObject({
      status: "complete",
      purchase_category: "direct",
      user_id: null,
      license_id: key.licenseId,
      buyer_email: key.email,
    });
  });

  describe("the section-7 API", () => {
    const rep$ = { cookie: "" };
    beforeAll(async () => {
      const res = await call("/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: DEMO.business.email, password: DEMO.password }),
        ip: "198.51.100.201",
      });
      rep$.cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    });
    const json = (path: string, init: RequestInit & { ip?: string } = {}) =>
      call(`/api/v1/${path}`, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });

    it("POST requests with the key and its e-mail, or with the editor's headers; messages in the caller's language", async () => {
      const [a, b] = take(2);
      const body = { message: "Studio, Lee", request_email: "lee@studio.example", item_list: [a.code] };
      const byMail = await json("requests", {
        method: "POST",
        body: JSON.stringify({ ...body, license_id: DEMO.licenses.b2bg.serial, license_email: "editor1@studio.example" }),
      });
      expect(byMail.status).toBe(200);
      const made = (await byMail.json()).data;
      expect(made.quote_url).toMatch(/^http:\/\/store\.test\/mypage\/estimate\?token=/);
      const byEditor = await json("requests", {
        method: "POST",
        headers: { license_id: DEMO.licenses.b2bg.serial, hw_info: DEMO.licenses.b2bg.hw_info },
        body: JSON.stringify({ ...body, item_list: [b.code] }),
      });
      expect(byEditor.status).toBe(200);
      const individual = await json("requests", {
        method: "POST",
        headers: { language: "ko" },
        body: JSON.stringify({ ...body, license_id: DEMO.licenses.individual.serial, license_email: DEMO.member.email }),
      });
      expect(individual.status).toBe(409);
      expect((await individual.json()).result.message).toBe("개인 회원 또는 비회원용 라이선스 키입니다. 다시 확인해 주세요.");
      const missing = await json("requests", {
        method: "POST",
        headers: { language: "en" },
        body: JSON.stringify({ ...body, license_id: "VEDT-NONE", license_email: "x@example.com" }),
      });
      expect((await missing.json()).result.message).toBe("No license key with this information found. Please check again.");
      const tooLong = await json("requests", {
        method: "POST",
        body: JSON.stringify({
          ...body,
          message: "x".repeat(101),
          license_id: DEMO.licenses.b2bg.serial,
          license_email: "editor1@studio.example",
        }),
      });
      expect(tooLong.status).toBe(400);
      // Validation refusals carry the purchase-request form's messages (spec section 5), in the caller's language.
      expect((await tooLong.json()).result.message).toBe("The message can be up to 100 characters.");
      const refusal = async (fields: Record<string, unknown>, language = "en") => {
        const res = await json("requests", {
          method: "POST",
          headers: { language },
          body: JSON.stringify({ ...body, license_id: DEMO.licenses.b2bg.serial, license_email: "editor1@studio.example", ...fields }),
        });
        expect(res.status).toBe(400);
        return (await res.json()).result.message;
      };
      expect(await refusal({ request_email: "not-an-address" })).toBe("Enter a valid email address");
      expect(await refusal({ request_email: "  " })).toBe("Please enter your email");
      expect(await refusal({ request_email: undefined })).toBe("Please enter your email");
      expect(await refusal({ message: "" })).toBe("Enter a message with your company and your name.");
      expect(await refusal({ request_email: "nope" }, "ko")).toBe(
        ((await import("../../app/i18n/locales/ko/common.json")).default as { request: { error: { emailInvalid: string } } }).request.error
          .emailInvalid,
      );
    });

    it("GET requests/count, requests, requests/{id} and DELETE requests for the representative only", async () => {
      const count = await (await json("requests/count", { headers: { cookie: rep$.cookie } })).json();
      expect(count.data.count).toBe(await countOpenRequests(db, rep.id));
      const list = await (await json("requests?limit=2", { headers: { cookie: rep$.cookie } })).json();
      expect(list.data.list).toHaveLength(2);
      expect(list.data.total_count).toBeGreaterThan(2);
      // The spec's names (issue 26): a request's own id is request_id and its status is status; data.state of a
      // request's answer stays the SUCCESS/ERROR marker.
      const id = list.data.list[0].request_id;
      expect(list.data.list[0]).not.toHaveProperty("id");
      expect(["waiting", "expired", "paid"]).toContain(list.data.list[0].status);
      const one = await (await json(`requests/${id}`, { headers: { cookie: rep$.cookie } })).json();
      expect(one.data.items.length).toBeGreaterThan(0);
      expect(one.data).toMatchObject({ request_id: id, status: list.data.list[0].status });
      expect(one.data).not.toHaveProperty("state");
      const waiting = await (await json("requests?status=waiting", { headers: { cookie: rep$.cookie } })).json();
      const waitingOld = await (await json("requests?state=waiting", { headers: { cookie: rep$.cookie } })).json();
      expect(waiting.data.list.every((r: { status: string }) => r.status === "waiting")).toBe(true);
      expect(waitingOld.data).toEqual(waiting.data);
      const member = await newShopper(db);
      expect((await json("requests", { headers: { authorizationToken: member.token } })).status).toBe(403);
      expect((await json(`requests/${id}`, { headers: { authorizationToken: member.token } })).status).toBe(403);
      expect((await json("requests")).status).toBe(401);
      const del = await json("requests", {
        method: "DELETE",
        headers: { cookie: rep$.cookie, origin: "http://store.test" },
        body: JSON.stringify({ request_id_list: [id] }),
      });
      expect((await del.json()).data.count).toBe(1);
      expect((await json(`requests/${id}`, { headers: { cookie: rep$.cookie } })).status).toBe(404);
    });

    it("POST payments with request_id_list pays requests; with a key and its e-mail buys directly without a token", async () => {
      const made = await request(take(1).map((i) => i.id));
      const res = await json("payments", {
        method: "POST",
        headers: { cookie: rep$.cookie, origin: "http://store.test" },
        body: JSON.stringify({
          request_id_list: [made.id],
          method: "card",
          agree_terms: true,
          agree_paid: true,
          idempotency_key: "api-request-1",
        }),
      });
      expect(res.status).toBe(200);
      const orderNo = (await res.json()).data.order_no;
      await approve(orderNo);
      expect((await orderOf(orderNo)).purchase_category).toBe("request");
      const again = await json("payments", {
        method: "POST",
        headers: { cookie: rep$.cookie, origin: "http://store.test", language: "en" },
        body: JSON.stringify({
          request_id_list: [made.id],
          method: "card",
          agree_terms: true,
          agree_paid: true,
          idempotency_key: "api-request-2",
        }),
      });
      expect(again.status).toBe(409);
      expect((await again.json()).result.message).toBe("Payment is already completed for this request.");
      const [item] = take(1);
      // The product key is license_id in POST payments as in the headers and POST requests (issue 26); the old
      // license_key is still accepted for one release.
      const direct = await json("payments", {
        method: "POST",
        body: JSON.stringify({
          items: [{ kind: "content", id: item.id }],
          license_id: DEMO.licenses.b2bg.serial,
          license_email: "editor1@studio.example",
          method: "card",
          agree_terms: true,
          agree_paid: true,
          idempotency_key: "api-direct-1",
        }),
      });
      expect(direct.status).toBe(200);
      const directNo = (await direct.json()).data.order_no;
      expect(await orderOf(directNo)).toMatchObject({ purchase_category: "direct", user_id: null, license_id: key.licenseId });
      const [other] = take(1);
      const oldName = await json("payments", {
        method: "POST",
        body: JSON.stringify({
          items: [{ kind: "content", id: other.id }],
          license_key: DEMO.licenses.b2bg.serial,
          license_email: "editor1@studio.example",
          method: "card",
          agree_terms: true,
          agree_paid: true,
          idempotency_key: "api-direct-old-name",
        }),
      });
      expect(oldName.status).toBe(200);
      const oldNo = (await oldName.json()).data.order_no;
      expect(oldNo).not.toBe(directNo);
      expect(await orderOf(oldNo)).toMatchObject({ purchase_category: "direct", user_id: null, license_id: key.licenseId });
      await approve(directNo);
      // Looked up later by the key and its licensing e-mail.
      const mine = await json("users/orders", {
        headers: { license_id: DEMO.licenses.b2bg.serial, license_email: "editor1@studio.example" },
      });
      expect((await mine.json()).data.list.map((o: { order_no: string }) => o.order_no)).toContain(directNo);
      const stranger = await json("users/orders", { headers: { license_id: DEMO.licenses.b2bg.serial, license_email: "x@example.com" } });
      expect(stranger.status).toBe(404);
      const wrong = await json("payments", {
        method: "POST",
        body: JSON.stringify({
          items: [{ kind: "content", id: item.id }],
          license_id: DEMO.licenses.b2bg.serial,
          license_email: "intruder@example.com",
          method: "card",
          agree_terms: true,
          agree_paid: true,
          idempotency_key: "api-direct-2",
        }),
      });
      expect(wrong.status).toBe(404);
    });
  });
});
