/**
 * Issue 26, point 7: each mail is written in its reader's language, item names included. A requester browsing in
 * English sends a purchase request to a Korean representative: the representative's mail is Korean and names the
 * items in Korean, the requester's is English with English names. A key-only buyer checking out in English (paying
 * by card, in won) gets an English receipt naming the items in English.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { fixedT } from "../../app/i18n/i18n.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { placeOrder } from "../../app/market/orders/orders.server";
import { lookupBusinessKey } from "../../app/market/requests/lookup.server";
import { createPurchaseRequest } from "../../app/market/requests/requests.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

const DAY = 86_400_000;

describe(`mail in the reader's language on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  /** Paid items whose Korean and English names differ (so a name tells its language). */
  let items: { id: number; title_ko: string; title_en: string }[];
  let repEmail: string;
  let keySerial: string;
  let keyEmail: string;
  const ip = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
  const mailsTo = (to: string) => db.selectFrom("mail_outbox").selectAll().where("to_address", "=", to).orderBy("id").execute();

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    items = (
      await db
        .selectFrom("contents")
        .select(["id", "title_ko", "title_en"])
        .where("status", "=", "active")
        .where("price_type", "=", "paid")
        .where("contents_type", "in", ["video", "icon"])
        .orderBy("id")
        .limit(40)
        .execute()
    )
      .filter((c) => c.title_ko !== c.title_en)
      .slice(0, 4);
    expect(items).toHaveLength(4);
    // A business representative whose market language is Korean, and a key of the company.
    const rep = await newShopper(db, { userType: 2 });
    repEmail = rep.email;
    await db.updateTable("users").set({ language: "ko", organization: "Studio Han" }).where("id", "=", rep.userId).execute();
    keyEmail = `editor-${randomBytes(3).toString("hex")}@studio.example`;
    keySerial = `VEDT-B2B-${randomBytes(4).toString("hex").toUpperCase()}`;
    const now = new Date().toISOString();
    await db
      .insertInto("licenses")
      .values({
        serial: keySerial,
        alias: "Edit suite",
        email: keyEmail,
        owner_kind: "b2bg",
        user_id: rep.userId,
        hw_info: `HW-B2B-${randomBytes(4).toString("hex")}`,
        pc_name: "EDIT-SUITE",
        status: "registered",
        license_type: "one_year",
        valid_until: new Date(Date.now() + 365 * DAY).toISOString(),
        product_version: "2.0.5.1.0",
        sort_order: 1,
        registered_at: now,
        created_at: now,
      })
      .execute();
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  it("an English requester's request reaches the Korean representative in Korean, items named in Korean", async () => {
    const key = await lookupBusinessKey(db, { serial: keySerial, email: keyEmail, ip: ip() });
    const asked = items.slice(0, 2);
    const made = await createPurchaseRequest(db, {
      key,
      requestEmail: "requester@studio.example",
      message: "Studio Han, Lee: for the trailer",
      contentIds: asked.map((i) => i.id),
      locale: "en",
      origin: "http://store.test",
      ip: ip(),
    });
    const [toRep] = (await mailsTo(repEmail)).filter((m) => m.kind === "requestRep");
    expect(toRep.language).toBe("ko");
    expect(toRep.subject).toBe(fixedT("ko")("mail.requestRep.subject", { requestNo: made.requestNo }));
    for (const item of asked) {
      expect(toRep.body_text).toContain(`- ${item.title_ko}`);
      expect(toRep.body_html).toContain(item.title_ko.replaceAll("&", "&amp;"));
      expect(toRep.body_text).not.toContain(item.title_en);
    }
    const [toRequester] = (await mailsTo("requester@studio.example")).filter((m) => m.kind === "requestRequester");
    expect(toRequester.language).toBe("en");
    expect(toRequester.subject).toBe(fixedT("en")("mail.requestRequester.subject", { requestNo: made.requestNo }));
    for (const item of asked) {
      expect(toRequester.body_text).toContain(`- ${item.title_en}`);
      expect(toRequester.body_text).not.toContain(item.title_ko);
    }
  });

  it("a key-only buyer's English checkout paid by card (won) gets an English receipt naming the items in English", async () => {
    const key = await lookupBusinessKey(db, { serial: keySerial, email: keyEmail, ip: ip() });
    const bought = items.slice(2, 4);
    const placed = await placeOrder(db, call.payments, {
      buyer: { id: null, userType: 2, email: key.email },
      purchase: { category: "direct", key },
      items: bought.map((i) => ({ kind: "content" as const, id: i.id })),
      license: {},
      method: "card",
      locale: "en",
      idempotencyKey: `key:${key.licenseId}:${randomBytes(6).toString("hex")}`,
      origin: "http://store.test",
    });
    await sandbox.act(placed.orderNo, "approve");
    await sandbox.settled();
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", placed.orderNo).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: "complete", currency: "KRW", user_id: null, language: "en" });
    const receipt = (await mailsTo(keyEmail)).find((m) => m.kind === "receiptKey" && m.body_text.includes(placed.orderNo));
    expect(receipt?.language).toBe("en");
    expect(receipt?.subject).toBe(fixedT("en")("mail.receiptKey.subject", { orderNo: placed.orderNo }));
    expect(receipt?.body_text).toContain(bought[0].title_en);
    expect(receipt?.body_text).not.toContain(bought[0].title_ko);
    expect(receipt?.body_html).toContain('<html lang="en">');
  });
});
