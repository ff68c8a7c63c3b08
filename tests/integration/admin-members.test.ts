import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { fileInquiry } from "../../app/market/support.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

type Call = Awaited<ReturnType<typeof createTestApp>>;

describe(`operator console: members and licences on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  let call: Call;
  let support: string;
  const IP = "198.51.100.181";

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    dataDir = t.dataDir;
    call = await createTestApp(db, { dataDir });
    support = await signInOperator(call, "support", IP);
  });
  afterAll(async () => drop());

  const get = (path: string, cookie = support) => call(path, { headers: { cookie, "accept-language": "en" }, ip: IP });
  const demoId = async () =>
    (await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirstOrThrow()).id;

  /** A member with one of everything the member page lists: an order, a pass, a download and an inquiry. */
  async function memberWithHistory() {
    const shopper = await newShopper(db);
    const now = new Date().toISOString();
    const orderNo = `T${shopper.userId}-${Date.now()}`;
    const content = await db
      .selectFrom("contents")
      .select(["id", "title_en"])
      .where("status", "=", "active")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const price = await db.selectFrom("pass_prices").select("id").orderBy("id").executeTakeFirstOrThrow();
    await db
      .insertInto("orders")
      .values({
        order_no: orderNo,
        user_id: shopper.userId,
        license_id: shopper.licenseId,
        purchase_category: "member",
        status: "complete",
        method: "card",
        currency: "KRW",
        amount: 10_000,
        vat: 1_000,
        total: 11_000,
        cancel_quantity: 0,
        cancel_amount: 0,
        buyer_email: shopper.email,
        message: null,
        gateway: "sandbox",
        gateway_payment_id: null,
        vbank_due_at: null,
        idempotency_key: null,
        ptime: now,
        created_at: now,
        order_name: "Members test order",
        coupon_code: null,
        vbank_bank: null,
        vbank_account: null,
        vbank_holder: null,
        failure_message: null,
        pending_reason: null,
        updated_at: null,
      })
      .execute();
    const pass = await db
      .insertInto("passes")
      .values({
        user_id: shopper.userId,
        license_id: shopper.licenseId,
        order_item_id: null,
        pass_price_id: price.id,
        remaining: 7,
        total: 10,
        status: "available",
        purchased_at: now,
        expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("downloads")
      .values({
        content_id: content.id,
        license_id: shopper.licenseId,
        user_id: shopper.userId,
        order_item_id: null,
        pass_id: pass.id,
        kind: "pass",
        created_at: now,
        expires_at: null,
        request_id: null,
      })
      .execute();
    await fileInquiry(db, createLocalStorage(dataDir), shopper.userId, {
      category: "account",
      title: "Please delete my account",
      description: "I would like to leave the market.",
      email: shopper.email,
    });
    return { ...shopper, orderNo, contentTitle: content.title_en };
  }

  it("finds the demo member by e-mail and by nickname, and a licence by its key with its owner", async () => {
    const id = await demoId();
    const byEmail = await get("/admin/members?q=MEMBER%40example");
    expect(byEmail.status).toBe(200);
    const html = await byEmail.text();
    expect(html).toContain(`href="/admin/members/${id}"`);
    expect(html).toContain(DEMO.member.email);
    expect(html).not.toContain(DEMO.business.email);

    const byNickname = await (await get(`/admin/members?q=${encodeURIComponent(DEMO.member.nickname)}`)).text();
    expect(byNickname).toContain(DEMO.member.email);

    const byKey = await (await get("/admin/members?q=vedt-ind-0001")).text();
    expect(byKey).toContain(DEMO.licenses.individual.serial);
    expect(byKey).toContain(`href="/admin/members/${id}"`);
    expect(byKey).toContain("No member matches.");
    // A key held by no member says who holds it.
    const nonmember = await (await get(`/admin/members?q=${DEMO.licenses.nonmember.serial}`)).text();
    expect(nonmember).toContain(DEMO.licenses.nonmember.serial);
    expect(nonmember).toContain("Non-member");

    // Nothing asked: the newest members; hostile queries are plain text.
    expect((await get("/admin/members")).status).toBe(200);
    const hostile = await get(`/admin/members?q=${encodeURIComponent("%' OR 1=1 --")}&page=-4`);
    expect(hostile.status).toBe(200);
    expect(await hostile.text()).toContain("No member matches.");
  });

  it("reaches support and admin only", async () => {
    const finance = await signInOperator(call, "finance", "198.51.100.182");
    expect((await call("/admin/members", { headers: { cookie: finance }, ip: "198.51.100.182" })).status).toBe(403);
    const admin = await signInOperator(call, "admin", "198.51.100.183");
    expect((await call(`/admin/members/${await demoId()}`, { headers: { cookie: admin }, ip: "198.51.100.183" })).status).toBe(200);
    expect((await call("/admin/members")).status).toBe(302);
  });

  it("shows a member's profile, licences, orders, passes, downloads and inquiries", async () => {
    const demo = await (await get(`/admin/members/${await demoId()}`)).text();
    expect(demo).toContain(DEMO.member.nickname);
    expect(demo).toContain(DEMO.licenses.individual.serial);

    const m = await memberWithHistory();
    const res = await get(`/admin/members/${m.userId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const html = await res.text();
    expect(html).toContain(m.email);
    expect(html).toContain(m.serial);
    // (An order is named from its items; this one has none, so its number names it.)
    expect(html).toContain(m.orderNo);
    expect(html).toContain("₩11,000");
    expect(html).toMatch(/7\s*(<!-- -->)?\s*\/\s*(<!-- -->)?\s*10/);
    expect(html).toContain(m.contentTitle);
    expect(html).toContain("Please delete my account");

    expect((await get("/admin/members/abc")).status).toBe(404);
    expect((await get("/admin/members/99999999")).status).toBe(404);
  });

  it("withdraws a member on request like their own withdrawal, logs the operator's reason, and they can no longer sign in", async () => {
    const m = await memberWithHistory();
    // The member is signed in.
    expect((await call("/mypage/home", { headers: { cookie: m.jar.header }, ip: "203.0.113.80" })).status).toBe(200);

    // Bad input: no confirmations, no reason. Nothing is removed, and what was typed stays.
    const bad = await call(`/admin/members/${m.userId}`, {
      method: "POST",
      headers: { cookie: support, "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      body: new URLSearchParams({ intent: "withdraw", code: "privacy", reason: "Asked in inquiry", confirmDelete: "on" }),
      ip: IP,
    });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Tick both confirmations.");
    expect(badHtml).toContain("Asked in inquiry");
    for (const body of <Record<string, string>[]>[
      { intent: "withdraw", code: "privacy", reason: " ", confirmDelete: "on", confirmLoss: "on" },
      { intent: "withdraw", code: "because", reason: "x", confirmDelete: "on", confirmLoss: "on" },
      { intent: "delete-everything" },
    ])
      expect((await adminPost(call, support, `/admin/members/${m.userId}`, body, IP)).status).toBe(400);
    expect(await db.selectFrom("users").select("id").where("id", "=", m.userId).executeTakeFirst()).toBeTruthy();

    const done = await adminPost(
      call,
      support,
      `/admin/members/${m.userId}`,
      { intent: "withdraw", code: "privacy", reason: "Requested in 1:1 inquiry", confirmDelete: "on", confirmLoss: "on" },
      IP,
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/admin/members?withdrawn=1");
    expect(await (await get("/admin/members?withdrawn=1")).text()).toContain("The member has been withdrawn.");

    // The same removal as the member's own withdrawal.
    expect(await db.selectFrom("users").select("id").where("id", "=", m.userId).executeTakeFirst()).toBeUndefined();
    for (const table of ["passes", "downloads", "support_tickets", "sessions"] as const)
      expect(await db.selectFrom(table).select("user_id").where("user_id", "=", m.userId).execute(), table).toHaveLength(0);
    const licence = await db.selectFrom("licenses").select("user_id").where("id", "=", m.licenseId).executeTakeFirstOrThrow();
    expect(licence.user_id).toBeNull();
    const order = await db
      .selectFrom("orders")
      .select(["user_id", "buyer_email"])
      .where("order_no", "=", m.orderNo)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ user_id: null, buyer_email: null });
    const withdrawal = await db.selectFrom("withdrawals").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(withdrawal.reason).toBe("privacy");

    // One audit line with the operator's reason and no personal data of the member.
    const [line] = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "member.withdraw")
      .where("target_id", "=", String(m.userId))
      .execute();
    expect(line).toMatchObject({ operator_email: "support@example.com", target_type: "member", reason: "Requested in 1:1 inquiry" });
    expect(JSON.parse(line.before_json ?? "{}")).toMatchObject({ licences: 1, orders: 1, passes: 1, downloads: 1, inquiries: 1 });
    expect(`${line.before_json}${line.after_json}`).not.toContain(m.email);

    // Signed out, and cannot sign in again.
    expect((await call("/mypage/home", { headers: { cookie: m.jar.header }, ip: "203.0.113.80" })).status).toBe(302);
    const again = await call("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: m.email, password: "long-enough-pw" }),
      ip: "203.0.113.81",
    });
    expect(again.status).not.toBe(302);
    expect(again.headers.getSetCookie().some((c) => c.startsWith("gt=") && !c.startsWith("gt=;"))).toBe(false);

    // The member's page is gone; a second withdrawal finds nobody.
    expect((await get(`/admin/members/${m.userId}`)).status).toBe(404);
    const twice = await adminPost(
      call,
      support,
      `/admin/members/${m.userId}`,
      { intent: "withdraw", code: "privacy", reason: "again", confirmDelete: "on", confirmLoss: "on" },
      IP,
    );
    expect(twice.status).toBe(404);
  });
});
