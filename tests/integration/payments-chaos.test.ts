/**
 * 200 checkouts at once through the sandbox gateway against the real server process, with every webhook
 * delivered twice and at random delays (so out of order), and the server killed (SIGKILL) and restarted once in
 * the middle. Afterwards: every paid order is complete exactly once, nothing is charged twice, nothing unpaid is
 * fulfilled, and a reconciliation pass finds nothing left to fix.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createGateways } from "../../app/integrations/payments/index.server";
import { reconcileOpenOrders } from "../../app/market/orders/orders.server";
import { shopCookies } from "../../app/utils/cookies.server";
import { parseEnv } from "../../app/utils/env.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { freePort } from "../support/net";
import { Jar } from "../support/shopper";

const SECRET = "test-secret-test-secret";
const CHECKOUTS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`payments under concurrency, duplicated late webhooks and a crash on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let url: string;
  let dataDir: string;
  let port: number;
  let server: ChildProcess | null = null;
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    AUTO_SEED: "false",
    SESSION_SECRET: SECRET,
    LOG_REQUESTS: "false",
    SANDBOX_WEBHOOK_REPEAT: "2",
    SANDBOX_WEBHOOK_MAX_DELAY_MS: "1500",
    VBANK_EXPIRY_INTERVAL_S: "0",
    ...extra,
  });
  async function start() {
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      env: env(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d;
    });
    for (let i = 0; i < 300; i++) {
      if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
      } catch {
        // not up yet
      }
      await sleep(100);
    }
    throw new Error(`server did not start: ${stderr}`);
  }

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    url = t.url;
    dataDir = t.dataDir;
    port = await freePort();
  }, 60_000);
  afterAll(async () => {
    server?.kill("SIGKILL");
    await drop();
  });

  it("settles every checkout exactly once", { timeout: 240_000 }, async () => {
    const cookies = shopCookies(parseEnv({ SESSION_SECRET: SECRET }));
    const now = new Date().toISOString();
    const year = new Date(Date.now() + 365 * 86_400_000).toISOString();
    const contents = await db
      .selectFrom("contents")
      .select(["id", "sales_count"])
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .execute();
    const salesBefore = new Map(contents.map((c) => [c.id, c.sales_count]));
    const pass = await db.selectFrom("pass_prices").select(["id", "contents_count"]).orderBy("id").executeTakeFirstOrThrow();

    // 200 members, each signed in with a registered licence and two items in the cart.
    const shoppers: { i: number; userId: number; licenseId: number; cartIds: number[]; jar: Jar }[] = [];
    for (let i = 0; i < CHECKOUTS; i++) {
      const user = await db
        .insertInto("users")
        .values({
          email: `chaos-${i}-${randomBytes(3).toString("hex")}@example.com`,
          password_hash: "x",
          nickname: `c${i}`,
          user_type: 1,
          organization: null,
          market_email_agree: 0,
          youtube_channel_id: null,
          youtube_channel_updated_at: null,
          language: "en",
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const session = randomBytes(18).toString("base64url");
      await db.insertInto("sessions").values({ id: session, user_id: user.id, created_at: now, expires_at: year }).execute();
      const license = await db
        .insertInto("licenses")
        .values({
          serial: `VEDT-CHAOS-${i}-${randomBytes(2).toString("hex")}`,
          alias: null,
          email: "c@example.com",
          owner_kind: "individual",
          user_id: user.id,
          hw_info: `HW-C-${i}`,
          pc_name: null,
          status: "registered",
          license_type: "one_year",
          valid_until: year,
          product_version: "2.0.5.1.0",
          sort_order: 0,
          registered_at: now,
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const items = [contents[(2 * i) % contents.length].id, contents[(2 * i + 1) % contents.length].id];
      const carts = await db
        .insertInto("carts")
        .values(items.map((id) => ({ user_id: user.id, ngt: null, content_id: id, level_flag: 1, created_at: now })))
        .returning("id")
        .execute();
      const jar = new Jar();
      const value = (c: string) => c.split(";")[0].split("=").slice(1).join("=");
      jar.take(
        new Response(null, {
          headers: [
            ["set-cookie", `gt=${value(await cookies.gt.serialize(session))}`],
            ["set-cookie", `gsi=${value(await cookies.gsi.serialize("1"))}`],
          ],
        }),
      );
      shoppers.push({ i, userId: user.id, licenseId: license.id, cartIds: carts.map((c) => c.id), jar });
    }

    server = await start();
    let approved = 0;
    let restarted = false;
    /** One request as a browser sends it; retried through connection errors while the server is down. */
    const go = async (jar: Jar, path: string, form?: Record<string, string | string[]>) => {
      for (let attempt = 0; ; attempt++) {
        try {
          const body = new URLSearchParams();
          for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
          const res = await fetch(`http://127.0.0.1:${port}${path}`, {
            method: form ? "POST" : "GET",
            body: form ? body : undefined,
            redirect: "manual",
            headers: {
              cookie: jar.header,
              "accept-language": "en",
              ...(form ? { "content-type": "application/x-www-form-urlencoded", origin: `http://127.0.0.1:${port}` } : {}),
            },
          });
          jar.take(res);
          await res.arrayBuffer();
          if (res.status >= 500) throw new Error(`${res.status} ${path}`);
          return (res.headers.get("location") ?? "").replace(/^http:\/\/127\.0\.0\.1:\d+/, "");
        } catch (error) {
          if (attempt > 200) throw error;
          await sleep(150);
        }
      }
    };

    const flows = shoppers.map(async (s) => {
      await sleep(Math.random() * 2000);
      const kind = s.i % 10;
      if (kind === 4) expect(await go(s.jar, `/pay01?pass=${pass.id}`)).toBe("/pay01");
      else expect(await go(s.jar, "/cart", { intent: "buy", cart_id: s.cartIds.map(String) })).toBe("/pay01");
      expect(await go(s.jar, "/pay02", { choice: String(s.licenseId) })).toBe("/pay03");
      const method = kind === 2 || kind === 3 ? "vbank" : (["card", "phone", "kakaopay", "paypal"] as const)[s.i % 4];
      const hosted = await go(s.jar, "/pay03", { method, agreeTerms: "on", agreePaid: "on" });
      expect(hosted).toMatch(/^\/sandbox\/pay\//);
      const action = kind === 0 ? "decline" : kind === 1 ? "abandon" : "approve";
      const back = await go(s.jar, hosted, { action });
      approved++;
      if (approved === CHECKOUTS / 2 && !restarted) {
        restarted = true;
        server?.kill("SIGKILL");
        server = await start();
      }
      // A third of the payers close the browser at the gateway: only the webhooks bring the news.
      if (s.i % 3 !== 0) await go(s.jar, back);
      if (kind === 2) await go(s.jar, hosted, { action: "deposit" });
    });
    await Promise.all(flows);
    expect(restarted).toBe(true);

    // The restarted server's sandbox worker delivers whatever is queued (late, repeated, left from the crash).
    for (let i = 0; i < 200; i++) {
      const pending = await db
        .selectFrom("sandbox_webhooks")
        .select("id")
        .where("delivered_at", "is", null)
        .where("attempts", "<", 6)
        .execute();
      if (pending.length === 0) break;
      await sleep(250);
    }
    server?.kill("SIGTERM");
    await sleep(300);

    const payments = await db.selectFrom("sandbox_payments").selectAll().execute();
    // The checkouts of this test (the demo seed has orders of its own).
    const orders = await db.selectFrom("orders").selectAll().where("order_no", "not like", "MKT-DEMO-%").execute();
    expect(orders).toHaveLength(CHECKOUTS);
    const byNo = new Map(orders.map((o) => [o.order_no, o]));
    const paidByUser = new Map<number, number>();
    for (const p of payments) {
      const order = byNo.get(p.id);
      expect(order, p.id).toBeTruthy();
      if (!order) continue;
      if (p.status === "paid") {
        paidByUser.set(order.user_id as number, (paidByUser.get(order.user_id as number) ?? 0) + 1);
        expect(order.status, `${p.id} paid`).toBe("complete");
        expect(order.paid_amount).toBe(order.total);
        expect(p.paid).toBe(order.total);
      } else {
        expect(order.status, `${p.id} ${p.status}`).not.toBe("complete");
        expect(
          await db.selectFrom("order_items").select("id").where("order_id", "=", order.id).where("expires_at", "is not", null).execute(),
        ).toHaveLength(0);
      }
      if (p.status === "failed") expect(order.status).toBe("failed");
      if (p.status === "vbank_issued") expect(order.status).toBe("waiting");
      if (p.status === "ready") expect(order.status).toBe("pending");
    }
    // Nobody charged twice; the expected share of checkouts paid.
    for (const n of paidByUser.values()) expect(n).toBe(1);
    expect(paidByUser.size).toBe(shoppers.filter((s) => ![0, 1, 3].includes(s.i % 10)).length);

    // Fulfilled exactly once: one pass per paid pass order, sales counted once per paid line.
    const complete = orders.filter((o) => o.status === "complete");
    const passes = await db.selectFrom("passes").select(["order_item_id"]).execute();
    const passOrders = complete.filter((o) => shoppers.find((s) => s.userId === o.user_id && s.i % 10 === 4));
    expect(passes).toHaveLength(passOrders.length);
    const lines = await db.selectFrom("order_items").select(["order_id", "content_id"]).where("content_id", "is not", null).execute();
    const completeIds = new Set(complete.map((o) => o.id));
    const expectedSales = new Map<number, number>();
    for (const l of lines)
      if (completeIds.has(l.order_id)) expectedSales.set(l.content_id as number, (expectedSales.get(l.content_id as number) ?? 0) + 1);
    const after = await db.selectFrom("contents").select(["id", "sales_count"]).execute();
    for (const c of after)
      expect(c.sales_count - (salesBefore.get(c.id) ?? c.sales_count), `sales of ${c.id}`).toBe(expectedSales.get(c.id) ?? 0);

    // Nothing left to fix.
    const gateways = createGateways(db, parseEnv({ SESSION_SECRET: SECRET, DATA_DIR: dataDir }));
    expect(await reconcileOpenOrders(db, gateways)).toMatchObject({ changed: 0 });
  });
});
