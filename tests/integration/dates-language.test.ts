/**
 * Issue 18, point 8: dates and times are written in the page's language, in Korea time, on every page that shows
 * them: Korean pages never say "AM"/"PM" (오전/오후, or a date alone), English pages never use the Korean forms.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

const KO_DATE = /\d{4}\. \d{1,2}\. \d{1,2}\.|\d{4}년 \d{1,2}월 \d{1,2}일/;
const EN_DATE = /(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}, \d{4}/;
const EN_TIME = /\d{1,2}:\d{2}(:\d{2})?\s?(AM|PM)\b/;
const KO_TIME = /(오전|오후) \d{1,2}:\d{2}/;
/** "AM"/"PM" on either side of a time (Node's ICU writes "PM 3:05" in ko-KR). */
const ANY_AM_PM = /(AM|PM)\s?\d{1,2}:\d{2}|\d{1,2}:\d{2}(:\d{2})?\s?(AM|PM)\b/;

describe(`dates in the page's language on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let shopper: Awaited<ReturnType<typeof newShopper>>;
  let orderId: number;
  let lineId: number;
  let op: string;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    shopper = await newShopper(db);
    const item = await db
      .selectFrom("contents")
      .select("id")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .where("contents_type", "=", "video")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const res = await call("/api/v1/payments", {
      method: "POST",
      body: JSON.stringify({
        items: [{ kind: "content", id: item.id }],
        license_id: shopper.licenseId,
        method: "card",
        agree_terms: true,
        agree_paid: true,
        idempotency_key: `dates-language-${shopper.userId}`,
      }),
      headers: { authorizationToken: shopper.token, "content-type": "application/json" },
    });
    const body = (await res.json()) as { data: { order_no: string } };
    expect(res.status).toBe(200);
    await sandbox.act(body.data.order_no, "approve");
    await sandbox.settled();
    const order = await db.selectFrom("orders").select("id").where("order_no", "=", body.data.order_no).executeTakeFirstOrThrow();
    orderId = order.id;
    lineId = (await db.selectFrom("order_items").select("id").where("order_id", "=", orderId).executeTakeFirstOrThrow()).id;
    op = await signInOperator(call, "finance", "198.51.100.182");
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  const text = async (path: string, lang: "ko" | "en", cookie?: string) => {
    const res = await call(path, { headers: { "accept-language": lang, ...(cookie ? { cookie } : {}) } });
    expect(res.status, `${path} (${lang})`).toBe(200);
    return (await res.text()).replaceAll("<!-- -->", "");
  };

  it("writes every dated page in Korean forms in ko and English forms in en", async () => {
    const notice = await db.selectFrom("notices").select("id").orderBy("id").executeTakeFirstOrThrow();
    const event = await db.selectFrom("events").select("id").orderBy("id").executeTakeFirstOrThrow();
    const member = shopper.jar.header;
    const pages: [string, string | undefined][] = [
      ["/mypage/home", member],
      ["/mypage/pay", member],
      [`/mypage/pay/${orderId}`, member],
      ["/mypage/download", member],
      ["/mypage/licenses", member],
      [`/mypage/certificate/${lineId}`, member],
      ["/notice", undefined],
      [`/notice/${notice.id}`, undefined],
      ["/event", undefined],
      [`/event/${event.id}`, undefined],
      [`/admin/orders/${orderId}`, op],
    ];
    for (const [path, cookie] of pages) {
      const ko = await text(path, "ko", cookie);
      expect(ko, `${path} in ko`).not.toMatch(ANY_AM_PM);
      expect(ko, `${path} in ko`).toMatch(KO_DATE);
      const en = await text(path, "en", cookie);
      expect(en, `${path} in en`).not.toMatch(KO_DATE);
      expect(en, `${path} in en`).not.toMatch(KO_TIME);
      expect(en, `${path} in en`).toMatch(EN_DATE);
    }
    // Times of day: the order's payment time, in Korea time, with 오전/오후 in Korean.
    expect(await text(`/mypage/pay/${orderId}`, "ko", member)).toMatch(KO_TIME);
    expect(await text(`/mypage/pay/${orderId}`, "en", member)).toMatch(EN_TIME);
    expect(await text(`/admin/orders/${orderId}`, "ko", op)).toMatch(KO_TIME);
  });

  it("writes the editor's webview in the page's language", async () => {
    for (const lang of ["ko", "en"] as const) {
      for (const path of ["/mypage/sw/pay", `/mypage/sw/pay/${orderId}`, "/mypage/sw/download"]) {
        // As the editor opens it (its licence headers), in the webview's language.
        const res = await call(path, { headers: { license_id: shopper.serial, hw_info: shopper.hwInfo, "accept-language": lang } });
        expect(res.status, `${path} (${lang})`).toBe(200);
        const html = (await res.text()).replaceAll("<!-- -->", "");
        if (lang === "ko") {
          expect(html, path).not.toMatch(ANY_AM_PM);
          expect(html, path).toMatch(KO_DATE);
        } else {
          expect(html, path).not.toMatch(KO_DATE);
          expect(html, path).toMatch(EN_DATE);
        }
      }
    }
  });
});
