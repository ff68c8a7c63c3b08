import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { historyFloor } from "../../app/market/orders/history.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { Jar, newShopper } from "../support/shopper";

const EN = { "accept-language": "en" };
const DAY = 86_400_000;
type Shopper = Awaited<ReturnType<typeof newShopper>>;
type Licence = { serial: string; hwInfo: string; licenseId: number };

/**
 * The editor's webview pages of payments (/mypage/sw/pay, /mypage/sw/pay/{id}): the licence the editor runs sees
 * its own payments and nothing else, with the headers on a first request and the cookie afterwards.
 */
describe(`embedded payment history and detail on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let paid: { id: number }[];
  let next = 0;
  const take = (n: number) => {
    const items = paid.slice(next, next + n);
    next += n;
    return items.map((i) => i.id);
  };

  /** Member A with two licences: A1 and A2 paid for the first, A3 for the second. Member B: B1 for theirs. */
  let a: Shopper;
  let aOther: Licence;
  let b: Shopper;
  const orders: Record<"a1" | "a2" | "a3" | "b1", { id: number; orderNo: string }> = {} as never;

  /** A request as the storefront's browser without JavaScript sends it, cookies from and into the jar. */
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

  /** Cart → /pay01 → /pay02 (this licence) → /pay03 (card) → sandbox approve → /pay/return: a complete order. */
  async function payThroughPages(s: Shopper, licenseId: number, contentIds: number[]) {
    const at = new Date().toISOString();
    const cart = await db
      .insertInto("carts")
      .values(contentIds.map((id) => ({ user_id: s.userId, ngt: null, content_id: id, level_flag: 1, created_at: at })))
      .returning("id")
      .execute();
    expect(location(await go(s.jar, "/cart", { intent: "buy", cart_id: cart.map((c) => String(c.id)) }))).toBe("/pay01");
    expect((await go(s.jar, "/pay01")).status).toBe(200);
    expect(location(await go(s.jar, "/pay02", { choice: String(licenseId) }))).toBe("/pay03");
    const hosted = location(await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" }));
    expect(hosted).toMatch(/^\/sandbox\/pay\/MKT-/);
    const back = await go(s.jar, location(await go(s.jar, hosted, { action: "approve" })));
    expect(location(back)).toBe("/payComp");
    const orderNo = decodeURIComponent(hosted.split("/").pop() as string);
    const order = await db
      .selectFrom("orders")
      .select(["id", "order_no", "status", "license_id"])
      .where("order_no", "=", orderNo)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: "complete", license_id: licenseId });
    return { id: order.id, orderNo };
  }

  async function addLicence(s: Shopper): Promise<Licence> {
    const now = new Date();
    const hwInfo = `HW-${randomBytes(4).toString("hex")}`;
    const row = await db
      .insertInto("licenses")
      .values({
        serial: `VEDT-TST-${randomBytes(4).toString("hex").toUpperCase()}`,
        alias: "Second PC",
        email: s.email,
        owner_kind: "individual",
        user_id: s.userId,
        hw_info: hwInfo,
        pc_name: "SECOND-PC",
        status: "registered",
        license_type: "one_year",
        valid_until: new Date(now.getTime() + 365 * DAY).toISOString(),
        product_version: "2.0.5.1.0",
        sort_order: 1,
        registered_at: now.toISOString(),
        created_at: now.toISOString(),
      })
      .returning(["id", "serial"])
      .executeTakeFirstOrThrow();
    return { serial: row.serial, hwInfo, licenseId: row.id };
  }

  /** Orders written straight into the history (paging and the 3-year floor need more than pages can place quickly). */
  async function historyRows(licence: Licence, userId: number, times: Date[]) {
    const rows = await db
      .insertInto("orders")
      .values(
        times.map((at, i) => ({
          order_no: `MKT-HIST-${randomBytes(4).toString("hex").toUpperCase()}-${i}`,
          user_id: userId,
          license_id: licence.licenseId,
          purchase_category: "member",
          status: "complete",
          method: "card",
          currency: "KRW",
          amount: 1000,
          vat: 100,
          total: 1100,
          cancel_quantity: 0,
          cancel_amount: 0,
          buyer_email: null,
          message: null,
          gateway: "sandbox",
          gateway_payment_id: null,
          vbank_due_at: null,
          idempotency_key: null,
          ptime: at.toISOString(),
          created_at: at.toISOString(),
          order_name: `History ${i}`,
          coupon_code: null,
          vbank_bank: null,
          vbank_account: null,
          vbank_holder: null,
          failure_message: null,
          pending_reason: null,
          updated_at: null,
        })),
      )
      .returning(["id", "order_no", "ptime"])
      .execute();
    return rows;
  }

  /** The webview: the editor's headers (when given), its own cookie jar, its language. */
  const sw = (path: string, options: { licence?: Pick<Licence, "serial" | "hwInfo">; jar?: Jar; lang?: "en" | "ko" } = {}) => {
    const headers: Record<string, string> = { "accept-language": options.lang ?? "en" };
    if (options.licence) Object.assign(headers, { license_id: options.licence.serial, hw_info: options.licence.hwInfo });
    if (options.jar?.header) headers.cookie = options.jar.header;
    return call(path, { headers }).then((res) => (options.jar ? options.jar.take(res) : res));
  };
  /** An anchor to exactly this address with exactly this text (whatever other attributes React writes). */
  const link = (href: string, text: string) => new RegExp(`<a [^>]*href="${href.replace(/[?]/g, "\\$&")}"[^>]*>${text}</a>`);
  const allNumbers = () => Object.values(orders).map((o) => o.orderNo);

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
      .limit(40)
      .execute();
    a = await newShopper(db);
    aOther = await addLicence(a);
    b = await newShopper(db);
    orders.a1 = await payThroughPages(a, a.licenseId, take(2));
    orders.a2 = await payThroughPages(a, a.licenseId, take(1));
    orders.a3 = await payThroughPages(a, aOther.licenseId, take(1));
    orders.b1 = await payThroughPages(b, b.licenseId, take(1));
    // A1 was paid two days ago (KST days matter for the date filter below).
    await db
      .updateTable("orders")
      .set({ ptime: new Date(Date.now() - 2 * DAY).toISOString() })
      .where("id", "=", orders.a1.id)
      .execute();
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  it("lists the licence's paid orders, newest first, each linking to its detail, with the editor's headers", async () => {
    const res = await sw("/mypage/sw/pay", { licence: a });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^sw_license=/);
    expect(cookie).toContain("Path=/mypage/sw");
    const html = await res.text();
    expect(html).not.toContain('class="site-header"');
    expect(html).toContain("Available to search for up to 3 years");
    expect(html).toContain("2 payments");
    expect(html).toMatch(link(`/mypage/sw/pay/${orders.a1.id}`, orders.a1.orderNo));
    expect(html).toMatch(link(`/mypage/sw/pay/${orders.a2.id}`, orders.a2.orderNo));
    expect(html.indexOf(orders.a2.orderNo)).toBeLessThan(html.indexOf(orders.a1.orderNo));
    // The tab bar: Home, Payment history, Downloads and Benefits, the current one marked.
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/mypage\/sw\/pay">Payment history<\/a>/);
    expect(html).toMatch(link("/mypage/sw/home", "Home"));
    expect(html).toMatch(link("/mypage/sw/download", "Downloads"));
    expect(html).toMatch(link("/mypage/sw/benefit", "Benefits"));
    expect(html).toContain("<title>Payment history | My page in the editor");
  });

  it("shows the detail read-only, with every field and a link to manage it on the website", async () => {
    const res = await sw(`/mypage/sw/pay/${orders.a1.id}`, { licence: a });
    expect(res.status).toBe(200);
    const html = await res.text();
    const order = await db.selectFrom("orders").selectAll().where("id", "=", orders.a1.id).executeTakeFirstOrThrow();
    const won = (n: number) => `₩${n.toLocaleString("en-US")}`;
    for (const text of [
      "Payment details",
      orders.a1.orderNo,
      "Member purchase",
      "Complete",
      "Credit card",
      `Test PC · ${a.serial}`,
      "Items (VAT excluded)",
      won(order.amount - order.discount),
      "VAT (10%)",
      won(order.vat),
      "Total (VAT included)",
      won(order.total),
      "Cancelled quantity",
      "Cancelled amount",
      "Category",
      "Message",
    ])
      expect(html, text).toContain(text);
    expect(html).toMatch(/<dt>Quantity<\/dt><dd>2<\/dd>/);
    expect(html).toMatch(link(`/mypage/pay/${orders.a1.id}`, "Manage on the website"));
    // Read-only: no cancel form in the webview.
    expect(html).not.toContain('name="line"');
    expect(html).not.toContain("Cancel selected items");
    expect(html).not.toContain('method="post"');
  });

  it("keeps working on the cookie alone, for documents and client-side data requests", async () => {
    const webview = new Jar();
    expect((await sw("/mypage/sw/home", { licence: a, jar: webview })).status).toBe(200);
    expect(webview.has("sw_license")).toBe(true);
    const list = await sw("/mypage/sw/pay", { jar: webview });
    expect(list.status).toBe(200);
    expect(await list.text()).toContain(orders.a2.orderNo);
    const detail = await sw(`/mypage/sw/pay/${orders.a2.id}`, { jar: webview });
    expect(detail.status).toBe(200);
    expect(await detail.text()).toContain(orders.a2.orderNo);
    // Single fetch: what a client-side navigation asks for.
    const data = await sw(`/mypage/sw/pay.data?_routes=embedded-pay`, { jar: webview });
    expect(data.status).toBe(200);
    expect(await data.text()).toContain(orders.a1.orderNo);
    // A cookie that was not signed by the store does not count.
    const forged = await call("/mypage/sw/pay", { headers: { ...EN, cookie: "sw_license=eyJzZXJpYWwiOiJ4In0%3D.forged" } });
    expect(forged.status).toBe(401);
  });

  it("answers another licence's order with a 404 inside the layout, never its data", async () => {
    for (const other of [orders.b1, orders.a3]) {
      const res = await sw(`/mypage/sw/pay/${other.id}`, { licence: a });
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain("It is an invalid URL.");
      expect(html).toContain('class="tabs"');
      expect(html).toMatch(link("/mypage/sw/pay", "Back to payment history"));
      expect(html).not.toContain(other.orderNo);
      const data = await sw(`/mypage/sw/pay/${other.id}.data?_routes=embedded-pay-detail`, { licence: a });
      expect(await data.text()).not.toContain(other.orderNo);
    }
    for (const id of ["0", "abc", "99999999", "1e3"]) expect((await sw(`/mypage/sw/pay/${id}`, { licence: a })).status, id).toBe(404);
  });

  it("without the editor's headers asks to open it from the editor (401), and shows no payment", async () => {
    for (const path of ["/mypage/sw/pay", `/mypage/sw/pay/${orders.a1.id}`, `/mypage/sw/pay.data?_routes=embedded-pay`]) {
      const res = await sw(path);
      expect(res.status, path).toBe(401);
      const body = await res.text();
      if (!path.endsWith("embedded-pay")) expect(body).toContain("Open this page from the video editor");
      for (const orderNo of allNumbers()) expect(body).not.toContain(orderNo);
    }
  });

  it("refuses a wrong hw_info (403) and shows no payment", async () => {
    for (const path of ["/mypage/sw/pay", `/mypage/sw/pay/${orders.a1.id}`]) {
      const res = await sw(path, { licence: { serial: a.serial, hwInfo: "HW-SOMEONE-ELSE" } });
      expect(res.status, path).toBe(403);
      const body = await res.text();
      expect(body).toContain("No license key with this information found. Please check again.");
      for (const orderNo of allNumbers()) expect(body).not.toContain(orderNo);
    }
  });

  it("does not list the member's orders paid for another licence of theirs; that licence sees only its own", async () => {
    const first = await (await sw("/mypage/sw/pay", { licence: a })).text();
    expect(first).not.toContain(orders.a3.orderNo);
    expect(first).not.toContain(orders.b1.orderNo);
    const second = await (await sw("/mypage/sw/pay", { licence: aOther })).text();
    expect(second).toContain(orders.a3.orderNo);
    expect(second).toContain("1 payment");
    for (const orderNo of [orders.a1.orderNo, orders.a2.orderNo, orders.b1.orderNo]) expect(second).not.toContain(orderNo);
    expect((await sw(`/mypage/sw/pay/${orders.a3.id}`, { licence: aOther })).status).toBe(200);
    expect((await sw(`/mypage/sw/pay/${orders.a1.id}`, { licence: aOther })).status).toBe(404);
  });

  it("filters by a date range in Seoul days through the GET form, and says searches go 3 years back", async () => {
    const seoulDay = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(0, 10);
    const today = seoulDay(Date.now());
    const recent = await (await sw(`/mypage/sw/pay?from=${today}&to=${today}`, { licence: a })).text();
    expect(recent).toContain(orders.a2.orderNo);
    expect(recent).not.toContain(orders.a1.orderNo);
    expect(recent).toMatch(new RegExp(`<input type="date" name="from"[^>]* value="${today}"`));
    const older = await (await sw(`/mypage/sw/pay?to=${seoulDay(Date.now() - DAY)}`, { licence: a })).text();
    expect(older).toContain(orders.a1.orderNo);
    expect(older).not.toContain(orders.a2.orderNo);
    const future = await (await sw(`/mypage/sw/pay?from=${seoulDay(Date.now() + 3 * DAY)}`, { licence: a })).text();
    expect(future).toContain("No payments yet.");
    // Before the 3-year floor: the message is an alert, and the list starts at the floor.
    const clipped = await (await sw("/mypage/sw/pay?from=2000-01-01", { licence: a })).text();
    expect(clipped).toContain('<p class="muted" role="alert">Available to search for up to 3 years</p>');
    expect(clipped).toContain(orders.a1.orderNo);
    // The filter never shows a day before the floor (issue 26.8): the asked day is shown as the floor's day.
    const floorDay = seoulDay(Date.parse(historyFloor(new Date())));
    expect(clipped).toMatch(new RegExp(`<input type="date" name="from"[^>]* value="${floorDay}"`));
    const shownDays = (html: string) => [...html.matchAll(/<input type="date"[^>]* value="([^"]*)"/g)].map((m) => m[1]);
    expect(shownDays(clipped)).toEqual([floorDay, ""]);
    const bothBefore = await (await sw("/mypage/sw/pay?from=2000-01-01&to=2001-12-31", { licence: a })).text();
    expect(shownDays(bothBefore)).toEqual([floorDay, floorDay]);
    expect(bothBefore).toContain('<p class="muted" role="alert">Available to search for up to 3 years</p>');
    // Nonsense in the query is ignored, not an error.
    expect((await sw("/mypage/sw/pay?from=yesterday&page=-4", { licence: a })).status).toBe(200);
  });

  it("pages 20 at a time and never shows payments older than 3 years", async () => {
    const c = await newShopper(db);
    const now = Date.now();
    const rows = await historyRows(
      c,
      c.userId,
      Array.from({ length: 21 }, (_, i) => new Date(now - (i + 1) * 3_600_000)),
    );
    const [ancient] = await historyRows(c, c.userId, [new Date(now - (3 * 365 + 5) * DAY)]);
    const page1 = await (await sw("/mypage/sw/pay", { licence: c })).text();
    expect(page1).toContain("21 payments");
    expect(page1.match(/href="\/mypage\/sw\/pay\/\d+"/g)).toHaveLength(20);
    expect(page1).toContain(rows[0].order_no);
    expect(page1).not.toContain(rows[20].order_no);
    expect(page1).toMatch(link("/mypage/sw/pay?page=2", "Next"));
    const page2 = await (await sw("/mypage/sw/pay?page=2", { licence: c })).text();
    expect(page2.match(/href="\/mypage\/sw\/pay\/\d+"/g)).toHaveLength(1);
    expect(page2).toContain(rows[20].order_no);
    for (const html of [page1, page2]) expect(html).not.toContain(ancient.order_no);
  });

  it("speaks Korean: headings, the 3-year message, won amounts and Seoul times spelled on the server", async () => {
    const list = await (await sw("/mypage/sw/pay", { licence: a, lang: "ko" })).text();
    expect(list).toContain('<html lang="ko"');
    expect(list).toContain("결제 내역");
    expect(list).toContain("최대 3년까지 조회할 수 있습니다");
    expect(list).toContain("결제 완료");
    expect(list).toContain("결제 2건");
    const detail = await (await sw(`/mypage/sw/pay/${orders.a2.id}`, { licence: a, lang: "ko" })).text();
    for (const text of ["결제 상세", "회원 구매", "신용카드", "웹사이트에서 관리", "부가세 (10%)", "₩"])
      expect(detail, text).toContain(text);
    const missing = await (await sw(`/mypage/sw/pay/${orders.b1.id}`, { licence: a, lang: "ko" })).text();
    expect(missing).toContain("잘못된 URL입니다.");
  });
});
