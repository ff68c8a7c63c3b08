import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { type Jar, newShopper } from "../support/shopper";

/**
 * The store's addresses come from PUBLIC_URL, never from the request: here the store is published at
 * https://market.example while every request arrives addressed to http://store.test with a forged Host header.
 * One exception (issue 26, point 9): in test mode with PUBLIC_URL unset, a payer who opened the store on a loopback
 * address is sent back by the gateway to that address (and only a loopback one).
 */
describe.each([
  { PUBLIC: "https://market.example", PUBLIC_URL: "https://market.example" },
  // Unset: the default, this machine's port; the request's address is never used instead.
  { PUBLIC: "http://localhost:3000", PUBLIC_URL: "" },
])(`trusted origin on ${ENGINE}, PUBLIC_URL=$PUBLIC_URL`, ({ PUBLIC, PUBLIC_URL }) => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir, env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await (call.payments.sandbox as SandboxGateway).settled();
    await drop();
  });

  const go = async (jar: Jar, path: string, form?: Record<string, string | string[]>, host = "shop.attacker.example:9999") => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    return jar.take(
      await call(path, {
        method: form ? "POST" : "GET",
        body: form ? body : undefined,
        headers: {
          "accept-language": "en",
          host,
          cookie: jar.header,
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
      }),
    );
  };

  /** A member checks one item out through the pages, every request naming `host`; answers /pay03's answer. */
  async function checkout(host?: string, skip = 0) {
    const s = await newShopper(db);
    const item = await db
      .selectFrom("contents")
      .select("id")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .limit(1)
      .offset(skip)
      .executeTakeFirstOrThrow();
    const [line] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: item.id, level_flag: 1, created_at: new Date().toISOString() })
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: String(line.id) }, host);
    await go(s.jar, "/pay02", { choice: String(s.licenseId) }, host);
    return { s, pay: await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" }, host) };
  }

  it("hands the gateway return and webhook addresses on PUBLIC_URL, whatever host the payer's request named", async () => {
    const { s, pay } = await checkout();
    expect(pay.status).toBe(302);
    const hosted = pay.headers.get("location") ?? "";
    expect(hosted.startsWith(`${PUBLIC}/sandbox/pay/`) || hosted.startsWith("/sandbox/pay/")).toBe(true);
    const orderNo = decodeURIComponent(hosted.split("/").pop() as string);
    const row = await db.selectFrom("sandbox_payments").selectAll().where("payment_id", "=", orderNo).executeTakeFirstOrThrow();
    expect(row.return_url.startsWith(`${PUBLIC}/pay/return`)).toBe(true);
    expect(row.webhook_url).toBe(`${PUBLIC}/webhooks/payments/sandbox`);
    expect(JSON.stringify(row)).not.toMatch(/9999|store\.test/);

    // The payer is sent back to the public address, not to the host the request named.
    const approved = await go(s.jar, new URL(hosted, PUBLIC).pathname, { action: "approve" });
    expect(approved.headers.get("location")).toBe(`${PUBLIC}/pay/return?gateway=sandbox&paymentId=${orderNo}`);
  });

  it("a payer on a loopback address returns to it in test mode when PUBLIC_URL is unset; the webhook stays on the public origin", async () => {
    const { s, pay } = await checkout("127.0.0.1:9999", 1);
    expect(pay.status).toBe(302);
    const orderNo = decodeURIComponent((pay.headers.get("location") ?? "").split("/").pop() as string);
    const row = await db.selectFrom("sandbox_payments").selectAll().where("payment_id", "=", orderNo).executeTakeFirstOrThrow();
    // With PUBLIC_URL set, it is the only address, whatever the host.
    const back = PUBLIC_URL ? PUBLIC : "http://127.0.0.1:9999";
    expect(row.return_url).toBe(`${back}/pay/return?gateway=sandbox`);
    expect(row.cancel_url).toBe(`${back}/pay-cancel`);
    expect(row.webhook_url).toBe(`${PUBLIC}/webhooks/payments/sandbox`);
    const approved = await go(s.jar, `/sandbox/pay/${encodeURIComponent(orderNo)}`, { action: "approve" }, "127.0.0.1:9999");
    expect(approved.headers.get("location")).toBe(`${back}/pay/return?gateway=sandbox&paymentId=${orderNo}`);
  });

  it("writes canonical and og:url on PUBLIC_URL", async () => {
    const page = await (await call("/video", { headers: { host: "evil.example", "accept-language": "en" } })).text();
    expect(page).toContain(`<link rel="canonical" href="${PUBLIC}/video"/>`);
    expect(page).toContain(`content="${PUBLIC}/video"`);
    expect(page).not.toContain("evil.example");
    expect(page).not.toContain("store.test");
  });

  it("remembers the language in a cookie that is Secure exactly when the store is served over https", async () => {
    const res = await call("/video?language=ko");
    expect(res.status).toBe(302);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("lng="));
    if (PUBLIC.startsWith("https:")) expect(cookie).toMatch(/; Secure/);
    else expect(cookie).not.toMatch(/Secure/);
  });
});
