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

  const go = async (jar: Jar, path: string, form?: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    return jar.take(
      await call(path, {
        method: form ? "POST" : "GET",
        body: form ? body : undefined,
        headers: {
          "accept-language": "en",
          host: "127.0.0.1:9999",
          cookie: jar.header,
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
      }),
    );
  };

  it("hands the gateway return and webhook addresses on PUBLIC_URL, whatever host the payer's request named", async () => {
    const s = await newShopper(db);
    const item = await db
      .selectFrom("contents")
      .select("id")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const [line] = await db
      .insertInto("carts")
      .values({ user_id: s.userId, ngt: null, content_id: item.id, level_flag: 1, created_at: new Date().toISOString() })
      .returning("id")
      .execute();
    await go(s.jar, "/cart", { intent: "buy", cart_id: String(line.id) });
    await go(s.jar, "/pay02", { choice: String(s.licenseId) });
    const pay = await go(s.jar, "/pay03", { method: "card", agreeTerms: "on", agreePaid: "on" });
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
