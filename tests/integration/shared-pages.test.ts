/**
 * Pages shared by the shoppers they are the same for (app/utils/shared-pages.server.ts), on the real server as
 * `npm run serve` starts it (one worker, so every answer comes from one page cache). For each catalog page: a member
 * renders it, another member with the same header data gets it from the cache with their own nickname, and that
 * answer is byte for byte the page rendered for them alone (a request with a cookie the store does not know is
 * never shared). Members whose header differs (cart count, business account, open purchase requests) get their own
 * page; a nickname that is not plain text is rendered for its member alone; the stored page goes out as gzip with
 * the values spliced in, and as text to a client that takes no gzip. A loader that reads more of the shopper than
 * the key holds keeps the render personal.
 */
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import zlib from "node:zlib";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { addToCart } from "../../app/market/cart.server";
import { joinMarket } from "../../app/market/users/auth.server";
import { shopCookies } from "../../app/utils/cookies.server";
import { parseEnv } from "../../app/utils/env.server";
import { NICKNAME_TOKEN, sharedShopperPage } from "../../app/utils/shared-pages.server";
import { renameItem } from "../support/catalog";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { freePort } from "../support/net";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The page's text (gzip decoded by hand: the raw bytes were checked against Content-Length). */
  text: string;
  cache: string | null;
}

/** Each render's CSP nonce is its own: compared with it blanked. */
const withoutNonce = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

/** Both pages' texts, or where they first differ (a page is too long for a readable diff). */
function expectSamePage(got: string, want: string, label: string) {
  const a = withoutNonce(got);
  const b = withoutNonce(want);
  if (a === b) return;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  expect.fail(`${label}: the pages differ at ${i}:\n  got:  …${a.slice(i - 120, i + 120)}…\n  want: …${b.slice(i - 120, i + 120)}…`);
}

describe(`pages shared by members on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let port: number;
  let server: ChildProcess;
  let stderr = "";
  const base = () => `http://127.0.0.1:${port}`;
  const PASSWORD = "shared-pages-pw";

  function request(path: string, headers: Record<string, string>, method = "GET", body?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${base()}${path}`, { method, headers: { "accept-language": "en", ...headers }, timeout: 15_000 }, (r) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => {
          const raw = Buffer.concat(chunks);
          if (r.headers["content-length"] !== undefined) expect(raw.length).toBe(Number(r.headers["content-length"]));
          const encoding = r.headers["content-encoding"];
          const bytes = encoding === "gzip" ? zlib.gunzipSync(raw) : encoding === "br" ? zlib.brotliDecompressSync(raw) : raw;
          resolve({
            status: r.statusCode ?? 0,
            headers: r.headers,
            text: bytes.toString("utf8"),
            cache: (r.headers["x-cache"] as string) ?? null,
          });
        });
        r.on("error", reject);
      });
      req.on("timeout", () => req.destroy(new Error("timed out")));
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Signs in through the form; answers the browser's Cookie header. */
  async function signIn(email: string, password = PASSWORD): Promise<string> {
    const res = await request(
      "/login",
      { "content-type": "application/x-www-form-urlencoded", origin: base() },
      "POST",
      new URLSearchParams({ email, password }).toString(),
    );
    expect(res.status).toBe(302);
    const cookies = ([] as string[]).concat(res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]);
    return cookies.filter((c) => !c.endsWith("=")).join("; ");
  }

  async function member(nickname: string): Promise<{ cookie: string; id: number }> {
    const email = `shared-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const joined = await joinMarket(db, { email, password: PASSWORD, nickname, marketEmailAgree: false, language: "en" });
    if (!joined.ok) throw new Error("join failed");
    return { cookie: await signIn(email), id: joined.user.id };
  }

  const get = (path: string, cookie: string, extra: Record<string, string> = {}) =>
    request(path, { cookie, "accept-encoding": "gzip, deflate, br", ...extra });
  /** The page rendered for this member alone: a cookie the store does not know keeps a page out of the cache. */
  const alone = (path: string, cookie: string) => get(path, `${cookie}; unshared=1`);

  /** The first paid item on sale of a type (its code). */
  const codeOf = async (type: "video" | "icon" | "audio" | "font" | "package") =>
    (
      await db
        .selectFrom("contents")
        .select("code")
        .where("contents_type", "=", type)
        .where("status", "=", "active")
        .where("price_type", "=", "paid")
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).code;

  let pages: string[] = [];

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    port = await freePort();
    server = spawn(process.execPath, ["--max-semi-space-size=4", "--import", "tsx", "server.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        MALLOC_ARENA_MAX: "2",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: t.url,
        DATA_DIR: t.dataDir,
        AUTO_SEED: "false",
        SESSION_SECRET: "shared-secret-shared-secret",
        LOG_REQUESTS: "false",
        MAIL_POLL_MS: "0",
        WEB_CONCURRENCY: "1",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    server.stderr?.on("data", (d: Buffer) => {
      stderr += d;
    });
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      const up = await request("/healthz", {}).then(
        (r) => r.status === 200,
        () => false,
      );
      if (up) break;
      if (i > 600) throw new Error(`the server did not start: ${stderr}`);
      await sleep(100);
    }
    const category = await db
      .selectFrom("taxonomy")
      .select("id")
      .where("kind", "=", "category")
      .where("space", "=", "audio")
      .executeTakeFirstOrThrow();
    const notice = await db.selectFrom("notices").select("id").orderBy("id").executeTakeFirst();
    pages = [
      "/",
      "/video",
      "/audio",
      `/list/audio/${category.id}`,
      ...(await Promise.all(
        (["video", "icon", "audio", "font", "package"] as const).map(async (type) => `/contents/${type}?code=${await codeOf(type)}`),
      )),
      "/search/audio?keywords=rain",
      "/price",
      "/price/video",
      "/notice",
      ...(notice ? [`/notice/${notice.id}`] : []),
      "/event",
      "/support",
    ];
  }, 120_000);

  afterAll(async () => {
    if (server.exitCode === null) server.kill("SIGKILL");
    await drop();
  });

  it("gives each member the page shared with the others, with their own nickname, exactly as if rendered for them", async () => {
    const first = await member("김하나");
    const second = await member("Bob Lee-2");
    for (const path of pages) {
      const a = await get(path, first.cookie);
      expect(a.status, path).toBe(200);
      expect(a.text, path).toContain("김하나");
      const b = await get(path, second.cookie);
      expect(b.status, path).toBe(200);
      expect(b.cache, path).toBe("HIT");
      expect(b.headers["content-encoding"], path).toBe("gzip");
      expect(b.text, path).toContain("Hello, Bob Lee-2");
      expect(b.text, path).not.toContain("김하나");
      expect(b.text, path).not.toContain(NICKNAME_TOKEN);
      // Once in the header, once in the data the browser's React takes over with.
      expect(b.text.split("Bob Lee-2").length - 1, path).toBeGreaterThanOrEqual(2);
      const own = await alone(path, second.cookie);
      expect(own.cache, path).toBeNull();
      expectSamePage(b.text, own.text, path);
      // The nonce in the page is this response's own, as in its Content-Security-Policy.
      const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(String(b.headers["content-security-policy"]))?.[1];
      expect(nonce, path).toBeTruthy();
      expect(b.text, path).toContain(`nonce="${nonce}"`);
      // A client that takes no gzip gets the same page as text.
      const plain = await get(path, second.cookie, { "accept-encoding": "identity" });
      expect(plain.headers["content-encoding"], path).toBeUndefined();
      expectSamePage(plain.text, own.text, path);
    }
  }, 120_000);

  it("keys the page on the member's header: a cart's count, a business account and its purchase requests are never another's", async () => {
    const path = pages.find((p) => p.startsWith("/contents/video")) as string;
    const shopper = await member("Cart Owner");
    const other = await member("Empty Cart");
    await get(path, other.cookie);
    const icon = await codeOf("icon");
    await addToCart(db, { userId: shopper.id, ngt: null }, [{ code: icon }]);
    const withCart = await get(path, shopper.cookie);
    expect(withCart.text).toMatch(/data-testid="cart-count">1</);
    expectSamePage(withCart.text, (await alone(path, shopper.cookie)).text, "page");
    const without = await get(path, other.cookie);
    expect(without.cache).toBe("HIT");
    expect(without.text).toMatch(/data-testid="cart-count">0</);

    // The demo business account: its kind and its open purchase requests are in its header and on the pass page.
    const business = await signIn("business@example.com", "market1234!");
    for (const p of [path, "/price/video"]) {
      const mine = await get(p, business);
      expect(mine.text, p).toContain("데모기업");
      expect(mine.text, p).toContain('data-testid="request-count"');
      expectSamePage(mine.text, (await alone(p, business)).text, p);
      const individual = await get(p, other.cookie);
      expect(individual.text, p).not.toContain('data-testid="request-count"');
      expect(individual.text, p).not.toContain("데모기업");
    }
  });

  it("renders a nickname that is not plain text for its member alone, escaped as React escapes it", async () => {
    const odd = await member('<b>Eve & "Co"</b>');
    const res = await get("/video", odd.cookie);
    expect(res.status).toBe(200);
    expect(res.cache).toBeNull();
    expect(res.text).toContain("Hello, &lt;b&gt;Eve &amp; &quot;Co&quot;&lt;/b&gt;");
    expect(res.text).not.toContain(NICKNAME_TOKEN);
  });

  it("shares a visitor's page with a cart (no session) with visitors whose cart has as many items", async () => {
    const ngt = "shared-pages-cart-token-0001";
    const icon = await codeOf("icon");
    await addToCart(db, { userId: null, ngt }, [{ code: icon }]);
    const cookie = (await shopCookies(parseEnv({ SESSION_SECRET: "shared-secret-shared-secret" })).ngt.serialize(ngt)).split(";")[0];
    const visitor = await get("/icon", cookie);
    expect(visitor.status).toBe(200);
    expect(visitor.text).toMatch(/data-testid="cart-count">1</);
    expect(visitor.text).not.toMatch(/Hello, [^{]/);
    expectSamePage(visitor.text, (await alone("/icon", cookie)).text, "page");
  });

  it("shows a changed item to members within about a second, though their page was shared and cached", async () => {
    const path = pages.find((p) => p.startsWith("/contents/icon")) as string;
    const code = new URL(path, base()).searchParams.get("code") as string;
    const item = await db.selectFrom("contents").selectAll().where("code", "=", code).executeTakeFirstOrThrow();
    const someone = await member("Watcher");
    await get(path, someone.cookie);
    expect((await get(path, someone.cookie)).cache).toBe("HIT");
    const title = `Shared renamed ${Math.random().toString(36).slice(2, 8)}`;
    const changed = await renameItem(db, item.id, title);
    expect(changed).toEqual({ ok: true });
    let seen = false;
    for (let i = 0; i < 30 && !seen; i++) {
      seen = (await get(path, someone.cookie)).text.includes(title);
      if (!seen) await sleep(100);
    }
    expect(seen).toBe(true);
  });

  it("keeps a render personal when a loader reads more of the shopper than the page's key", async () => {
    const someone = await member("Proxy Reader");
    const request = new Request(`${base()}/video`, { headers: { cookie: someone.cookie } });
    const env = parseEnv({ SESSION_SECRET: "shared-secret-shared-secret", DATABASE_URL: "file:unused" });
    const context = { db, env, locale: "en", cspNonce: "n", requestId: "r", clientIp: "127.0.0.1" } as unknown as AppLoadContext;
    const shared = await sharedShopperPage(request, context);
    if (!shared) throw new Error("a plain nickname is shared");
    expect(shared.values).toEqual({ nickname: "Proxy Reader" });
    expect(shared.renderValues).toEqual({ nickname: NICKNAME_TOKEN });
    expect(shared.key).not.toContain("Proxy Reader");
    const page = shared.renderContext.sharedPage;
    if (!page) throw new Error("the render's context carries the shared shopper");
    // What the key holds, awaited as readShopper's answer is, and tested for presence: still shared.
    const shopper = await Promise.resolve(page.shopper);
    expect(Boolean(shopper.viewer)).toBe(true);
    expect(shopper.viewer?.nickname).toBe(NICKNAME_TOKEN);
    expect(shopper.viewer?.userType).toBe(1);
    expect(page.header.viewer?.nickname).toBe(NICKNAME_TOKEN);
    expect(shared.touched()).toBe(false);
    // The member's id: the page would be theirs alone.
    expect(shopper.viewer?.id).toBe(someone.id);
    expect(shared.touched()).toBe(true);
    const again = await sharedShopperPage(request, context);
    void again?.renderContext.sharedPage?.shopper.ngt;
    expect(again?.touched()).toBe(true);
  });
});
