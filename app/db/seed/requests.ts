import { createHash } from "node:crypto";
import type { DB } from "../db.server";

const DAY = 86_400_000;

/** The demo's business keys, their users' requests and the quote links (listed in the README). */
export const DEMO_REQUESTS = {
  secondKey: { serial: "VEDT-B2B-0002-DEMO", hw_info: "HW-DEMO-B2B-0002", email: "editor2@studio.example" },
  /** A business key whose company account never joined the market. */
  outsiderKey: { serial: "VEDT-B2B-0099-DEMO", email: "editor@outsider.example" },
  quotes: {
    waiting: "demo-quote-waiting-7Qm2Xc9Lr4Tz",
    paid: "demo-quote-paid-3Hk8Vn1Pw6Ys",
    expired: "demo-quote-expired-5Jd4Bf7Gq2Ne",
  },
} as const;

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * The business representative's side of the demo: a second B2BG key with its user, a key of a company that is not a
 * market member, and one waiting, one paid (with its order) and one expired purchase request, so every state shows
 * after `npm start`.
 */
export async function seedBusinessRequests(db: DB, nowIso: string, businessUserId: number, firstKeyId: number) {
  const now = Date.parse(nowIso);
  const at = (days: number) => new Date(now + days * DAY).toISOString();
  const D = DEMO_REQUESTS;
  const second = await db
    .insertInto("licenses")
    .values({
      serial: D.secondKey.serial,
      alias: "편집팀 2",
      email: D.secondKey.email,
      owner_kind: "b2bg",
      user_id: businessUserId,
      hw_info: D.secondKey.hw_info,
      pc_name: "TEAM-PC-02",
      status: "registered",
      license_type: "one_year",
      valid_until: at(365),
      product_version: "2.0.5.1.0",
      sort_order: 1,
      registered_at: nowIso,
      created_at: nowIso,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("licenses")
    .values({
      serial: D.outsiderKey.serial,
      alias: null,
      email: D.outsiderKey.email,
      owner_kind: "b2bg",
      user_id: null,
      hw_info: null,
      pc_name: null,
      status: "waiting_registration",
      license_type: "one_year",
      valid_until: at(365),
      product_version: "2.0.5.1.0",
      sort_order: 0,
      registered_at: null,
      created_at: nowIso,
    })
    .execute();
  const paid = await db
    .selectFrom("contents")
    .select(["id", "price_krw", "title_ko", "contents_type"])
    .where("price_type", "=", "paid")
    .where("status", "=", "active")
    .where("contents_type", "in", ["video", "audio", "icon"])
    .orderBy("id")
    .limit(6)
    .execute();
  if (paid.length < 6) return;
  const vat = (n: number) => Math.round(n / 10);
  const requests = [
    {
      no: "REQ-DEMO-0001",
      license: firstKeyId,
      email: "editor1@studio.example",
      msg: "데모 스튜디오 편집팀 김편집: 다음 주 납품 영상용",
      items: paid.slice(0, 2),
      created: at(-2),
      expires: at(28),
      status: "waiting",
      token: D.quotes.waiting,
    },
    {
      no: "REQ-DEMO-0002",
      license: second.id,
      email: D.secondKey.email,
      msg: "데모 스튜디오 편집팀 이영상: 광고 배경음악",
      items: paid.slice(2, 4),
      created: at(-10),
      expires: at(20),
      status: "paid",
      token: D.quotes.paid,
    },
    {
      no: "REQ-DEMO-0003",
      license: firstKeyId,
      email: "editor1@studio.example",
      msg: "데모 스튜디오 편집팀 김편집: 지난 분기 요청",
      items: paid.slice(4, 6),
      created: at(-45),
      expires: at(-15),
      status: "waiting",
      token: D.quotes.expired,
    },
  ];
  for (const r of requests) {
    const amount = r.items.reduce((n, i) => n + i.price_krw, 0);
    const total = r.items.reduce((n, i) => n + i.price_krw + vat(i.price_krw), 0);
    let orderId: number | null = null;
    if (r.status === "paid") {
      const paidAt = at(-9);
      const order = await db
        .insertInto("orders")
        .values({
          order_no: "MKT-DEMO-REQ00002",
          user_id: businessUserId,
          license_id: r.license,
          purchase_category: "request",
          status: "complete",
          method: "card",
          currency: "KRW",
          amount,
          vat: total - amount,
          total,
          paid_amount: total,
          cancel_quantity: 0,
          cancel_amount: 0,
          buyer_email: "business@example.com",
          gateway: "sandbox",
          gateway_payment_id: "MKT-DEMO-REQ00002",
          idempotency_key: "demo:request:2",
          order_name: `${r.items[0].title_ko} 외 ${r.items.length - 1}건`,
          ptime: paidAt,
          created_at: paidAt,
          updated_at: paidAt,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      orderId = order.id;
      await db
        .insertInto("order_items")
        .values(
          r.items.map((i) => ({
            order_id: order.id,
            content_id: i.id,
            pass_price_id: null,
            item_type: i.contents_type,
            quantity: 1,
            unit_price: i.price_krw,
            vat: vat(i.price_krw),
            status: "active",
            expires_at: new Date(Date.parse(paidAt) + 90 * DAY).toISOString(),
          })),
        )
        .execute();
    }
    const row = await db
      .insertInto("purchase_requests")
      .values({
        request_no: r.no,
        owner_user_id: businessUserId,
        license_id: r.license,
        request_email: r.email,
        message: r.msg,
        status: r.status,
        currency: "KRW",
        total,
        order_id: orderId,
        expires_at: r.expires,
        created_at: r.created,
        quote_token_hash: hash(r.token),
        language: "ko",
        paid_at: r.status === "paid" ? at(-9) : null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("purchase_request_items")
      .values(r.items.map((i) => ({ request_id: row.id, content_id: i.id, unit_price: i.price_krw })))
      .execute();
    if (orderId !== null) await db.insertInto("order_requests").values({ order_id: orderId, request_id: row.id }).execute();
  }
}
