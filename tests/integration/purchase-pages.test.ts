/**
 * The business representative's pages (spec sections 2, 4, 6, 8, 9): /mypage/purchase (list, filters, paging, pay
 * and delete selected, with and without JavaScript), /mypage/purchase/{id}, and the printable quote /mypage/estimate
 * with its PDF, by the request's link (no login) or by the owner's id.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { DEMO_REQUESTS } from "../../app/db/seed/requests";
import { languageCookie } from "../../app/i18n/language.server";
import { lookupBusinessKey } from "../../app/market/requests/lookup.server";
import { createPurchaseRequest } from "../../app/market/requests/requests.server";
import { seoulText } from "../../app/utils/dates";
import { parseEnv } from "../../app/utils/env.server";
import { readPay } from "../../app/utils/pay-session.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { signIn } from "../support/session";
import { newShopper } from "../support/shopper";

const DAY = 86_400_000;
const NOT_FOUND_EN = "The requested page was not found. Please use the service with the correct address.";
const NOT_FOUND_KO = "요청하신 페이지를 찾을 수 없습니다. 올바른 주소로 서비스를 이용해 주세요.";
type Lang = "ko" | "en";

/** The Asia/Seoul calendar day `daysAgo` days back, and noon of it (KST) as an instant. */
const seoulDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY + 9 * 3_600_000).toISOString().slice(0, 10);
const seoulNoon = (daysAgo: number, plusSeconds = 0) => new Date(Date.parse(`${seoulDay(daysAgo)}T12:00:00+09:00`) + plusSeconds * 1000);

describe(`the representative's purchase request pages on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let lng: Record<Lang, string>;
  let paid: { id: number; code: string; price_krw: number }[];
  let next = 0;
  const take = (n: number) => {
    const out = paid.slice(next, next + n);
    next += n;
    return out.map((c) => c.id);
  };
  let ipSeq = 0;
  const ip = () => `198.51.100.${(ipSeq++ % 250) + 1}`;

  /** The demo representative, signed in, and the demo requests (waiting, paid, expired). */
  let demo: { cookie: string; waiting: number; paid: number; expired: number };
  /** A fresh representative with a business key: 23 requests (21 waiting two days ago, one paid, one expired). */
  let repA: Representative & { ids: { waiting: number[]; paid: number; expired: number; usd: number } };
  /** Another representative with one request of their own. */
  let repB: Representative & { requestId: number; quotePath: string };

  /** A new business account (user_type 2) whose licence is a business key. */
  async function newRepresentative() {
    const rep = await newShopper(db, { userType: 2 });
    await db.updateTable("licenses").set({ owner_kind: "b2bg" }).where("id", "=", rep.licenseId).execute();
    await db
      .updateTable("users")
      .set({ organization: `Org ${rep.userId}` })
      .where("id", "=", rep.userId)
      .execute();
    const key = await lookupBusinessKey(db, { serial: rep.serial, email: rep.email, ip: ip() });
    const request = (contentIds: number[], now: Date, locale: Lang = "ko") =>
      createPurchaseRequest(db, {
        key,
        requestEmail: `editor-${rep.userId}@studio.example`,
        message: "Studio, Kim: for the launch video",
        contentIds,
        locale,
        origin: "http://store.test",
        ip: ip(),
        now,
      });
    return { ...rep, request };
  }
  type Representative = Awaited<ReturnType<typeof newRepresentative>>;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    lng = {
      ko: (await languageCookie.serialize("ko")).split(";")[0],
      en: (await languageCookie.serialize("en")).split(";")[0],
    };
    paid = await db
      .selectFrom("contents")
      .select(["id", "code", "price_krw"])
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .where("contents_type", "!=", "package")
      .orderBy("id", "desc")
      .limit(120)
      .execute();

    const signedIn = await signIn(call, DEMO.business.email, "192.0.2.71");
    const byNo = async (no: string) =>
      (await db.selectFrom("purchase_requests").select("id").where("request_no", "=", no).executeTakeFirstOrThrow()).id;
    demo = {
      cookie: signedIn.cookie,
      waiting: await byNo("REQ-DEMO-0001"),
      paid: await byNo("REQ-DEMO-0002"),
      expired: await byNo("REQ-DEMO-0003"),
    };

    const a = await newRepresentative();
    const waiting: number[] = [];
    for (let i = 0; i < 21; i++) waiting.push((await a.request(take(1), seoulNoon(2, i))).id);
    const paidOne = await a.request(take(2), seoulNoon(6));
    await db
      .updateTable("purchase_requests")
      .set({ status: "paid", paid_at: seoulNoon(5).toISOString() })
      .where("id", "=", paidOne.id)
      .execute();
    const expired = await a.request(take(1), seoulNoon(40));
    // A request quoted in dollars (an English-speaking requester), made today.
    const usd = await a.request(take(1), new Date(Date.now() - 60_000), "en");
    repA = { ...a, ids: { waiting, paid: paidOne.id, expired: expired.id, usd: usd.id } };

    const b = await newRepresentative();
    const own = await b.request(take(2), new Date(Date.now() - 3_600_000));
    repB = { ...b, requestId: own.id, quotePath: own.quotePath };
  });
  afterAll(() => drop());

  /** A page as a browser without JavaScript asks for it; `cookie` may be "" (signed out). */
  const get = (path: string, cookie: string, lang: Lang = "en") =>
    call(path, { headers: { cookie: [cookie, lng[lang]].filter(Boolean).join("; ") } });
  const post = (path: string, cookie: string, form: Record<string, string | string[]>, lang: Lang = "en") => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    return call(path, {
      method: "POST",
      body,
      headers: { cookie: [cookie, lng[lang]].filter(Boolean).join("; "), "content-type": "application/x-www-form-urlencoded" },
    });
  };
  const repACookie = () => repA.jar.header;
  /** The request numbers of a list page, in order. */
  const numbersIn = (html: string) => [...html.matchAll(/href="\/mypage\/purchase\/(\d+)"/g)].map((m) => Number(m[1]));

  it("links the header's request count to /mypage/purchase, for business accounts only", async () => {
    const home = await (await get("/", demo.cookie)).text();
    expect(home).toMatch(/<a[^>]*href="\/mypage\/purchase"[^>]*><span data-testid="request-count">1 request to pay<\/span><\/a>/);
    const member = await newShopper(db);
    const memberHome = await (await get("/", member.jar.header)).text();
    expect(memberHome).not.toContain('href="/mypage/purchase"');
    expect(memberHome).not.toContain("request-count");
  });

  it("requires a sign-in and a business account", async () => {
    const out = await get("/mypage/purchase", "");
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/?redirect=requires-auth&redirectTo=%2Fmypage%2Fpurchase");
    const member = await newShopper(db);
    for (const [lang, message] of [
      ["en", "Purchase request management is available to business representative accounts only."],
      ["ko", "구매 요청 관리는 기업 대표 계정에서만 이용할 수 있습니다."],
    ] as const) {
      const res = await get("/mypage/purchase", member.jar.header, lang);
      expect(res.status).toBe(403);
      const html = await res.text();
      expect(html).toContain(message);
      expect(html).toContain('href="/mypage/home"');
    }
    expect((await get(`/mypage/purchase/${demo.waiting}`, member.jar.header)).status).toBe(404);
    const refused = await post("/mypage/purchase?index", member.jar.header, { intent: "delete", request: String(demo.waiting) });
    expect(refused.status).toBe(403);
    expect(await db.selectFrom("purchase_requests").select("deleted_at").where("id", "=", demo.waiting).executeTakeFirstOrThrow()).toEqual({
      deleted_at: null,
    });
  });

  it("lists the representative's requests newest first, 20 to a page, with each row's facts", async () => {
    const res = await get("/mypage/purchase", repACookie());
    expect(res.status).toBe(200);
    const html = await res.text();
    // The page's count says it counts all requests; the one beside it, the header's, those waiting for payment.
    expect(html).toContain('<span data-testid="request-list-count">24 purchase requests in all</span>');
    expect(html).toContain('<span data-testid="request-waiting-count">22 to pay (waiting for payment)</span>');
    const first = numbersIn(html);
    expect(first).toHaveLength(20);
    expect(first[0]).toBe(repA.ids.usd);
    expect(first.slice(1)).toEqual([...repA.ids.waiting].reverse().slice(0, 19));
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    // One row in full: date, number, requester, key and alias, contents, quantity, total with VAT, state.
    const row = await db.selectFrom("purchase_requests").selectAll().where("id", "=", repA.ids.waiting[20]).executeTakeFirstOrThrow();
    const rowHtml = html.slice(html.indexOf(`value="${row.id}"`), html.indexOf("</tr>", html.indexOf(`value="${row.id}"`)));
    expect(rowHtml).toContain(seoulText(row.created_at, "en", "date"));
    expect(rowHtml).toContain(`>${row.request_no}</a>`);
    expect(rowHtml).toContain(row.request_email);
    expect(rowHtml).toContain(repA.serial);
    expect(rowHtml).toContain("Test PC");
    expect(rowHtml).toContain(`₩${row.total.toLocaleString("en-US")}`);
    expect(rowHtml).toContain("Waiting for payment");
    // The dollar request shows its own currency.
    const usd = await db.selectFrom("purchase_requests").select("total").where("id", "=", repA.ids.usd).executeTakeFirstOrThrow();
    expect(html).toContain(`$${(usd.total / 100).toFixed(2)}`);

    const page2 = await (await get("/mypage/purchase?page=2", repACookie())).text();
    expect(numbersIn(page2)).toEqual([repA.ids.waiting[1], repA.ids.waiting[0], repA.ids.paid, repA.ids.expired]);
    expect(page2).toMatch(/<a[^>]*href="\/mypage\/purchase\?page=1"[^>]*rel="prev"|rel="prev"[^>]*href="\/mypage\/purchase\?page=1"/);
    // Another representative's requests never show.
    expect(numbersIn(html + page2)).not.toContain(repB.requestId);
  });

  it("filters by state and by request date (Asia/Seoul days), the filters kept in the page links", async () => {
    const list = async (query: string, lang: Lang = "en") => {
      const html = await (await get(`/mypage/purchase?${query}`, repACookie(), lang)).text();
      return { html, ids: numbersIn(html) };
    };
    const waiting = await list("state=waiting");
    expect(waiting.html).toContain("22 purchase requests match the search");
    expect(waiting.html).toContain('href="/mypage/purchase?state=waiting&amp;page=2"');
    expect((await list("state=waiting&page=2")).ids).toEqual([repA.ids.waiting[1], repA.ids.waiting[0]]);
    expect((await list("state=paid")).ids).toEqual([repA.ids.paid]);
    expect((await list("state=expired")).ids).toEqual([repA.ids.expired]);
    expect((await list("state=nonsense")).html).toContain("24 purchase requests in all");

    const day = seoulDay(6);
    const onePaidDay = await list(`from=${day}&to=${day}`);
    expect(onePaidDay.ids).toEqual([repA.ids.paid]);
    expect(onePaidDay.html).toContain(`value="${day}"`);
    expect((await list(`from=${seoulDay(2)}&to=${seoulDay(2)}&state=waiting`)).html).toContain("21 purchase requests match the search");
    expect((await list(`to=${seoulDay(30)}`)).ids).toEqual([repA.ids.expired]);
    expect((await list(`from=${seoulDay(1)}`)).ids).toEqual([repA.ids.usd]);
    // A day that does not exist is no filter.
    expect((await list("from=2026-02-31")).html).toContain("24 purchase requests in all");
    const none = await list(`from=${seoulDay(1)}&state=expired`);
    expect(none.html).toContain("No purchase requests.");

    const ko = await list("state=expired", "ko");
    expect(ko.html).toContain("조회된 구매 요청 1건");
    expect(ko.html).toContain("결제할 요청(결제 대기) 22건");
    expect((await list("", "ko")).html).toContain("전체 구매 요청 24건");
    expect(ko.html).toContain("기간 만료");
    expect(ko.html).toContain('<html lang="ko"');
  });

  it("shows one request in full, with the quoted and payable prices and the discontinued and repriced flags", async () => {
    const [gone, cheaper, same] = take(3);
    const created = await repA.request([gone, cheaper, same], new Date(Date.now() - 5 * 60_000));
    const before = await db.selectFrom("contents").select(["id", "price_krw"]).where("id", "in", [cheaper, same]).execute();
    const cheaperPrice = before.find((c) => c.id === cheaper)!.price_krw;
    await db.updateTable("contents").set({ status: "discontinued" }).where("id", "=", gone).execute();
    await db
      .updateTable("contents")
      .set({ price_krw: cheaperPrice - 100 })
      .where("id", "=", cheaper)
      .execute();
    const res = await get(`/mypage/purchase/${created.id}`, repACookie());
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(created.requestNo);
    expect(html).toContain(`editor-${repA.userId}@studio.example`);
    expect(html).toContain("Studio, Kim: for the launch video");
    expect(html).toContain(repA.serial);
    expect(html).toContain("Payable until");
    expect(html).toContain(seoulText(created.expiresAt, "en"));
    expect(html).toContain("This content has been discontinued");
    expect(html).toContain("Repriced since the quote: you pay the lower of the quoted and the current price.");
    // Paying now: the cheaper item at its new price, the unchanged one, the discontinued one left out; VAT 10%.
    const samePrice = before.find((c) => c.id === same)!.price_krw;
    const amount = cheaperPrice - 100 + samePrice;
    const vat = Math.round((cheaperPrice - 100) / 10) + Math.round(samePrice / 10);
    expect(html).toContain(`₩${amount.toLocaleString("en-US")}`);
    expect(html).toContain(`₩${vat.toLocaleString("en-US")}`);
    expect(html).toContain(`₩${(amount + vat).toLocaleString("en-US")}`);
    expect(html).toMatch(/<button[^>]*name="intent"[^>]*value="pay"/);
    expect(html).toMatch(new RegExp(`<a href="/mypage/estimate\\?id=${created.id}" target="_blank" rel="noopener noreferrer"`));

    const ko = await (await get(`/mypage/purchase/${created.id}`, repACookie(), "ko")).text();
    expect(ko).toContain("판매가 중단된 콘텐츠입니다");
    expect(ko).toContain("견적 이후 가격이 바뀌었습니다.");
    expect(ko).toContain("결제 가능 기한");

    // A paid request has no Pay button.
    const paidPage = await (await get(`/mypage/purchase/${repA.ids.paid}`, repACookie())).text();
    expect(paidPage).toContain(">Paid<");
    expect(paidPage).not.toMatch(/value="pay"/);
  });

  it("answers 404 for another account's, an unknown or a malformed request id", async () => {
    for (const path of [`/mypage/purchase/${repB.requestId}`, "/mypage/purchase/99999999", "/mypage/purchase/abc"]) {
      const res = await get(path, repACookie());
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain("It is an invalid URL.");
    }
    const forged = await post(`/mypage/purchase/${repB.requestId}`, repACookie(), { intent: "delete" });
    expect(forged.status).toBe(404);
    const pay = await post("/mypage/purchase?index", repACookie(), { intent: "pay", request: String(repB.requestId) });
    expect(pay.status).toBe(404);
    expect(await pay.text()).toContain("This purchase request was not found.");
    expect((await get(`/mypage/purchase/${repB.requestId}`, repB.jar.header)).status).toBe(200);
  });

  it("deletes selected requests from a plain form post and says so; the detail's Delete goes back to the list", async () => {
    const a = await repA.request(take(1), new Date(Date.now() - 120_000));
    const b = await repA.request(take(1), new Date(Date.now() - 110_000));
    const c = await repA.request(take(1), new Date(Date.now() - 100_000));
    const none = await post("/mypage/purchase?index", repACookie(), { intent: "delete" });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("Select the purchase requests first.");

    const res = await post("/mypage/purchase?index", repACookie(), { intent: "delete", request: [String(a.id), String(b.id)] });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("2 purchase requests deleted.");
    expect(numbersIn(html)).not.toContain(a.id);
    expect(numbersIn(html)).toContain(c.id);
    expect((await get(`/mypage/purchase/${a.id}`, repACookie())).status).toBe(404);

    const fromDetail = await post(`/mypage/purchase/${c.id}`, repACookie(), { intent: "delete" }, "ko");
    expect(fromDetail.status).toBe(302);
    expect(fromDetail.headers.get("location")).toBe("/mypage/purchase?deleted=1");
    const after = await (await get("/mypage/purchase?deleted=1", repACookie(), "ko")).text();
    expect(after).toContain("구매 요청 1건을 삭제했습니다.");
    expect(numbersIn(after)).not.toContain(c.id);
  });

  it("pays selected requests: the pay cookie carries them (flow pay_requests) and the payment steps start at /pay01", async () => {
    const ids = [repA.ids.waiting[3], repA.ids.waiting[4]];
    const res = await post("/mypage/purchase?index", repACookie(), { intent: "pay", request: ids.map(String) });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/pay01");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("pay="));
    expect(cookie).toBeTruthy();
    const env = parseEnv({ NODE_ENV: "production", SESSION_SECRET: "test-secret-test-secret", PUBLIC_URL: "http://store.test" });
    const pay = await readPay(new Request("http://store.test/pay01", { headers: { cookie: cookie!.split(";")[0] } }), { env } as never);
    expect(pay?.data.flow).toBe("pay_requests");
    expect(pay?.data.requestIds).toEqual(ids);
    expect(pay?.items).toEqual([]);

    // The detail page's Pay does the same for its request.
    const one = await post(`/mypage/purchase/${repA.ids.waiting[5]}`, repACookie(), { intent: "pay" });
    expect(one.headers.get("location")).toBe("/pay01");
    expect(one.headers.getSetCookie().some((c) => c.startsWith("pay=") && !c.startsWith("pay=;"))).toBe(true);

    // With JavaScript (Remix's data request), the redirect and the cookie come back the same way.
    const js = await call("/mypage/purchase.data?index", {
      method: "POST",
      body: new URLSearchParams([
        ["intent", "pay"],
        ["request", String(repA.ids.waiting[6])],
      ]),
      headers: { cookie: [repACookie(), lng.en].join("; "), "content-type": "application/x-www-form-urlencoded" },
    });
    expect(js.status).toBe(202);
    expect(await js.text()).toContain("/pay01");
    expect(js.headers.getSetCookie().some((c) => c.startsWith("pay=") && !c.startsWith("pay=;"))).toBe(true);
  });

  it("refuses to pay a paid or an expired request with the spec's messages, in both languages", async () => {
    const cases = [
      [demo.paid, "Payment is already completed for this request.", "이미 결제가 완료된 요청입니다."],
      [demo.expired, "The available payment period for this request has expired.", "결제 가능 기간이 만료된 요청입니다."],
    ] as const;
    for (const [id, en, ko] of cases) {
      const list = await post("/mypage/purchase?index", demo.cookie, { intent: "pay", request: [String(demo.waiting), String(id)] });
      expect(list.status).toBe(409);
      expect(list.headers.getSetCookie().some((c) => c.startsWith("pay=") && !c.startsWith("pay=;"))).toBe(false);
      const html = await list.text();
      expect(html).toContain(en);
      // The choice is kept for the next try.
      expect(html).toMatch(new RegExp(`checked="" value="${id}"`));
      const detail = await post(`/mypage/purchase/${id}`, demo.cookie, { intent: "pay" }, "ko");
      expect(detail.status).toBe(409);
      expect(await detail.text()).toContain(ko);
    }
  });

  it("answers a Pay selected over two currencies with the requests of each and one payment per currency, with and without JavaScript", async () => {
    const krw = [repA.ids.waiting[8], repA.ids.waiting[7]];
    const numbers = async (ids: number[]) => {
      const rows = await db.selectFrom("purchase_requests").select(["id", "request_no"]).where("id", "in", ids).execute();
      return ids.map((id) => rows.find((r) => r.id === id)?.request_no);
    };
    const [krw1, krw2] = await numbers(krw);
    const [usd] = await numbers([repA.ids.usd]);
    const form = { intent: "pay", request: [String(krw[1]), String(repA.ids.usd), String(krw[0])] };
    // Without JavaScript: a plain form post re-renders the page with the answer.
    const en = await post("/mypage/purchase?index", repACookie(), form);
    expect(en.status).toBe(409);
    expect(en.headers.getSetCookie().some((c) => c.startsWith("pay=") && !c.startsWith("pay=;"))).toBe(false);
    const html = await en.text();
    const alert = html.slice(html.indexOf('role="alert"'), html.indexOf("</ul>", html.indexOf('role="alert"')));
    expect(alert).toContain(
      "The selected requests are in different currencies, and one payment is made in one currency. Pay them in separate payments, one for each currency:",
    );
    expect(alert).toContain(`Requests in KRW: ${krw1}, ${krw2}`);
    expect(alert).toContain(`Requests in USD: ${usd}`);
    // Each currency's own payment: a form with its requests and a Pay button, which starts paying them.
    expect(alert).toContain("Pay the 2 requests in KRW");
    expect(alert).toContain("Pay the 1 request in USD");
    const krwForm = alert.slice(alert.indexOf("<form"), alert.indexOf("</form>"));
    expect([...krwForm.matchAll(/name="request" value="(\d+)"/g)].map((m) => Number(m[1]))).toEqual(krw);
    const payKrw = await post("/mypage/purchase?index", repACookie(), { intent: "pay", request: krw.map(String) });
    expect(payKrw.status).toBe(302);
    expect(payKrw.headers.get("location")).toBe("/pay01");
    // The choice is kept for the next try.
    for (const id of [...krw, repA.ids.usd]) expect(html).toMatch(new RegExp(`checked="" value="${id}"`));

    const ko = await (await post("/mypage/purchase?index", repACookie(), form, "ko")).text();
    expect(ko).toContain("선택한 요청의 통화가 서로 다릅니다. 한 번의 결제는 한 가지 통화로만 할 수 있으니 통화별로 나누어 결제해 주세요.");
    expect(ko).toContain(`KRW 요청: ${krw1}, ${krw2}`);
    expect(ko).toContain("KRW 요청 2건 결제");

    // With JavaScript (Remix's data request), the same answer as data.
    const js = await call("/mypage/purchase.data?index", {
      method: "POST",
      body: new URLSearchParams([["intent", "pay"], ...form.request.map((id) => ["request", id])]),
      headers: { cookie: [repACookie(), lng.en].join("; "), "content-type": "application/x-www-form-urlencoded" },
    });
    expect(js.status).toBe(409);
    const body = await js.text();
    expect(body).toContain("pay.error.REQUEST_CURRENCIES_MIXED");
    for (const no of [krw1, krw2, usd]) expect(body).toContain(no);
  });

  it("shows the quote by its link without a login, plain, in the visitor's language, and not indexed", async () => {
    const path = `/mypage/estimate?token=${DEMO_REQUESTS.quotes.waiting}`;
    const row = await db.selectFrom("purchase_requests").selectAll().where("id", "=", demo.waiting).executeTakeFirstOrThrow();
    for (const lang of ["en", "ko"] as const) {
      const res = await get(path, "", lang);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      const html = await res.text();
      expect(html).toContain(lang === "en" ? "Quotation" : "견적서");
      expect(html).toContain("REQ-DEMO-0001");
      expect(html).toContain(seoulText(row.created_at, lang, "date"));
      expect(html).toContain(seoulText(row.expires_at, lang));
      // Supplier from the footer's business information; recipient: organization, requester, key.
      expect(html).toContain(lang === "en" ? "VideoAsset Co., Ltd." : "주식회사 비디오에셋");
      expect(html).toContain(lang === "en" ? "Business registration number: 123-45-67890" : "사업자등록번호: 123-45-67890");
      expect(html).toContain(DEMO.business.organization);
      expect(html).toContain("editor1@studio.example");
      expect(html).toContain(DEMO.licenses.b2bg.serial);
      expect(html).toContain(lang === "en" ? "VAT (10%)" : "부가세(10%)");
      expect(html).toContain(`₩${row.total.toLocaleString("en-US")}`);
      expect(html).toContain('href="/mypage/estimate-pdf?token=');
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      // Plain layout: no storefront header or footer.
      expect(html).not.toContain("site-header");
      expect(html).not.toContain("site-footer");
    }
    const items = await db
      .selectFrom("purchase_request_items")
      .innerJoin("contents", "contents.id", "purchase_request_items.content_id")
      .select(["contents.code", "purchase_request_items.unit_price"])
      .where("request_id", "=", demo.waiting)
      .execute();
    const html = await (await get(path, "")).text();
    for (const i of items) {
      expect(html).toContain(i.code);
      expect(html).toContain(`₩${i.unit_price.toLocaleString("en-US")}`);
    }
    // A request's own link works the same way.
    expect((await get(repB.quotePath, "")).status).toBe(200);
  });

  it("shows the quote by id to its representative only", async () => {
    const own = await get(`/mypage/estimate?id=${demo.waiting}`, demo.cookie);
    expect(own.status).toBe(200);
    const html = await own.text();
    expect(html).toContain("REQ-DEMO-0001");
    expect(html).toContain(`href="/mypage/estimate-pdf?id=${demo.waiting}"`);
    // The owner can print the quote of a paid request; the page says its state.
    const paidQuote = await get(`/mypage/estimate?id=${demo.paid}`, demo.cookie);
    expect(paidQuote.status).toBe(200);
    expect(await paidQuote.text()).toContain("Current status of this request: Paid");

    const other = await get(`/mypage/estimate?id=${repB.requestId}`, demo.cookie);
    expect(other.status).toBe(404);
    expect(await other.text()).toContain(NOT_FOUND_EN);
    const member = await newShopper(db);
    expect((await get(`/mypage/estimate?id=${demo.waiting}`, member.jar.header)).status).toBe(404);
    const signedOut = await get(`/mypage/estimate?id=${demo.waiting}`, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(/^\/\?redirect=requires-auth/);
  });

  it("answers a bad or expired link with 404 and the spec's message", async () => {
    for (const path of [
      "/mypage/estimate",
      "/mypage/estimate?token=nope",
      `/mypage/estimate?token=${"x".repeat(32)}`,
      `/mypage/estimate?token=${DEMO_REQUESTS.quotes.expired}`,
      "/mypage/estimate?id=abc",
    ]) {
      for (const [lang, message] of [
        ["en", NOT_FOUND_EN],
        ["ko", NOT_FOUND_KO],
      ] as const) {
        const res = await get(path, path.includes("id=") ? demo.cookie : "", lang);
        expect(res.status, path).toBe(404);
        const html = await res.text();
        expect(html).toContain(`<p>${message}</p>`);
        expect(html).toContain('<meta name="robots" content="noindex"/>');
      }
    }
  });

  it("serves the quote as a PDF by the same rules", async () => {
    const pdf = await get(`/mypage/estimate-pdf?token=${DEMO_REQUESTS.quotes.waiting}`, "", "ko");
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe('attachment; filename="quote-REQ-DEMO-0001.pdf"');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The Korean font is embedded (the text would be empty boxes without it).
    expect(bytes.toString("latin1")).toContain("GowunDodum");

    const byId = await get(`/mypage/estimate-pdf?id=${demo.waiting}`, demo.cookie, "en");
    expect(byId.status).toBe(200);
    expect(
      Buffer.from(await byId.arrayBuffer())
        .subarray(0, 4)
        .toString("latin1"),
    ).toBe("%PDF");

    for (const [path, cookie] of [
      ["/mypage/estimate-pdf?token=nope", ""],
      [`/mypage/estimate-pdf?token=${DEMO_REQUESTS.quotes.expired}`, ""],
      [`/mypage/estimate-pdf?id=${repB.requestId}`, demo.cookie],
    ] as const) {
      const res = await get(path, cookie);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toBe(NOT_FOUND_EN);
    }
  });
});
