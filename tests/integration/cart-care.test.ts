/**
 * Issue 24, points 3-5, as a browser without JavaScript uses the pages: "Buy now" checks out that one item and
 * leaves the cart alone; "Delete selected" is confirmed with the lines it would delete; a purchase request takes its
 * items out of the requester's cart (the header's count follows); the items a licence already holds are shown
 * and dropped in one action.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { Jar, newShopper } from "../support/shopper";

type Item = { id: number; code: string; contents_type: string; title_en: string; title_ko: string };
const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
const headerCount = (html: string) => Number(html.match(/data-testid="cart-count">(\d+)</)?.[1]);
const formResult = (html: string) => html.match(/class="form-result(?: is-error)?">([^<]*)</)?.[1];
/** The titles the order summary of a payment page lists. */
const payLines = (html: string) => (html.match(/<ul class="cart-lines pay-lines"[\s\S]*?<\/ul>/)?.[0] ?? "").match(/<li /g)?.length ?? 0;

describe(`cart care (issue 24) on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let paid: Item[];
  let free: Item;
  let next = 0;
  const take = (n: number) => {
    const out = paid.slice(next, next + n);
    next += n;
    return out;
  };
  let ipNo = 20;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    const rows = await db
      .selectFrom("contents")
      .select(["id", "code", "contents_type", "title_en", "title_ko", "price_type"])
      .where("status", "=", "active")
      .where("contents_type", "in", ["video", "icon", "audio"])
      .orderBy("id", "desc")
      .limit(400)
      .execute();
    paid = rows.filter((r) => r.price_type === "paid");
    free = rows.find((r) => r.price_type === "free") as Item;
  });
  afterAll(() => drop());

  /** A browser without JavaScript: forms post, redirects are read, cookies kept in the jar. */
  function browser(jar: Jar, lang: "en" | "ko" = "en") {
    const ip = `198.51.100.${ipNo++}`;
    return async (path: string, form?: Record<string, string | string[]>) => {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
      return jar.take(
        await call(path, {
          method: form ? "POST" : "GET",
          body: form ? body : undefined,
          ip,
          headers: {
            "accept-language": lang,
            cookie: jar.header,
            ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
          },
        }),
      );
    };
  }
  const location = (res: Response) => (res.headers.get("location") ?? "").replace(/^http:\/\/store\.test/, "");
  const detail = (i: Item) => `/contents/${i.contents_type}?code=${i.code}`;
  const cartRows = (userId: number) =>
    db.selectFrom("carts").select(["id", "content_id", "created_at"]).where("user_id", "=", userId).orderBy("id").execute();
  const putInCart = (userId: number, items: Item[]) =>
    db
      .insertInto("carts")
      .values(items.map((i) => ({ user_id: userId, ngt: null, content_id: i.id, level_flag: 0, created_at: new Date().toISOString() })))
      .execute();

  describe("Buy now (point 4)", () => {
    it("checks out that one item without JavaScript, in both languages, and leaves the cart as it was", async () => {
      for (const lang of ["en", "ko"] as const) {
        const s = await newShopper(db);
        const go = browser(s.jar, lang);
        const inCart = take(2);
        const [item] = take(1);
        await putInCart(s.userId, inCart);
        const before = await cartRows(s.userId);
        // The item's page offers Buy now as a plain form post to the cart's action.
        const page = await (await go(detail(item))).text();
        expect(page).toMatch(/<input type="hidden" name="intent" value="buyNow"\/>/);
        const bought = await go("/cart", { intent: "buyNow", code: item.code, redirectTo: detail(item) });
        expect(bought.status).toBe(302);
        expect(location(bought)).toBe("/pay01");
        const step1 = await (await go("/pay01")).text();
        expect(payLines(step1)).toBe(1);
        expect(step1).toContain(esc(lang === "ko" ? item.title_ko : item.title_en));
        for (const other of inCart) expect(step1).not.toContain(esc(lang === "ko" ? other.title_ko : other.title_en));
        // The cart: the same lines, nothing added, every line still as it was.
        expect(await cartRows(s.userId)).toEqual(before);
        // Buy now of an item already in the cart checks out only that item too.
        expect(location(await go("/cart", { intent: "buyNow", code: inCart[1].code, redirectTo: detail(inCart[1]) }))).toBe("/pay01");
        const again = await (await go("/pay01")).text();
        expect(payLines(again)).toBe(1);
        expect(again).toContain(esc(lang === "ko" ? inCart[1].title_ko : inCart[1].title_en));
        expect(await cartRows(s.userId)).toEqual(before);
      }
    });

    it("sends a guest to sign in and back to the item; an item that cannot be bought comes back with why", async () => {
      const [item] = take(1);
      const guest = new Jar({ lng: "en" });
      const go = browser(guest);
      const res = await go("/cart", { intent: "buyNow", code: item.code, redirectTo: detail(item) });
      expect(location(res)).toBe(`/login?redirectTo=${encodeURIComponent(detail(item))}`);
      expect(guest.has("pay")).toBe(false);
      expect(guest.has("ngt")).toBe(false);
      const s = await newShopper(db);
      const member = browser(s.jar);
      const refused = await member("/cart", { intent: "buyNow", code: free.code, redirectTo: detail(free) });
      expect(location(refused)).toBe(`${detail(free)}&cart=FREE_CONTENT`);
      expect(s.jar.has("pay")).toBe(false);
      // Somewhere off the site is not where it comes back to.
      expect(location(await member("/cart", { intent: "buyNow", code: free.code, redirectTo: "//evil.example/x" }))).toBe(
        "/?cart=FREE_CONTENT",
      );
    });
  });

  describe("Delete selected (point 4)", () => {
    it("lists the lines it would delete and deletes only those once confirmed; keeping them deletes nothing", async () => {
      const s = await newShopper(db);
      const go = browser(s.jar);
      const items = take(3);
      await putInCart(s.userId, items);
      const lines = await cartRows(s.userId);
      const idOf = (i: Item) => String((lines.find((l) => l.content_id === i.id) as { id: number }).id);
      // The shopper meant to delete the first item but unticked it: the two others are what would go, by name.
      const asked = await go("/cart", { intent: "remove", cart_id: [idOf(items[1]), idOf(items[2])] });
      expect(asked.status).toBe(200);
      const html = await asked.text();
      const confirmation = html.match(/<form[^>]*class="cart-confirm"[\s\S]*?<\/form>/)?.[0] ?? "";
      expect(confirmation).toContain("Delete these 2 items from the cart?");
      expect(confirmation).toContain(esc(items[1].title_en));
      expect(confirmation).toContain(esc(items[2].title_en));
      expect(confirmation).not.toContain(esc(items[0].title_en));
      expect(confirmation).toContain('href="/cart"');
      expect(await cartRows(s.userId)).toHaveLength(3);
      // Without JavaScript the cart below keeps the boxes as they were sent.
      const checked = (html.match(/<input[^>]*name="cart_id"[^>]*id="cart-\d+"[^>]*>/g) ?? [])
        .filter((tag) => / checked=""/.test(tag))
        .map((tag) => /value="(\d+)"/.exec(tag)?.[1]);
      expect(checked.sort()).toEqual([idOf(items[1]), idOf(items[2])].sort());
      // "Keep them" is a plain link back: nothing is deleted. Confirming deletes exactly the listed lines.
      const done = await go("/cart", { intent: "removeConfirmed", cart_id: [idOf(items[1]), idOf(items[2])] });
      const after = await done.text();
      expect(formResult(after)).toBe("2 items deleted.");
      expect(headerCount(after)).toBe(1);
      expect((await cartRows(s.userId)).map((r) => r.content_id)).toEqual([items[0].id]);
      // Another shopper's line is never listed nor deleted.
      const other = await newShopper(db);
      const [theirs] = take(1);
      await putInCart(other.userId, [theirs]);
      const theirLine = String((await cartRows(other.userId))[0].id);
      const foreign = await (await go("/cart", { intent: "remove", cart_id: [theirLine] })).text();
      expect(formResult(foreign)).toBe("Select the items first.");
      await go("/cart", { intent: "removeConfirmed", cart_id: [theirLine] });
      expect(await cartRows(other.userId)).toHaveLength(1);
    });
  });

  describe("a requested item leaves the cart (point 5)", () => {
    /** A key-only visitor's anonymous cart filled through the add form; answers the cart's line ids. */
    async function anonymousCart(go: ReturnType<typeof browser>, items: Item[]) {
      for (const i of items) expect((await go("/cart", { intent: "add", code: i.code, redirectTo: "/cart" })).status).toBe(302);
      const page = await (await go("/cart")).text();
      return [...page.matchAll(/name="cart_id" id="cart-(\d+)"/g)].map((m) => m[1]);
    }
    const ngtLines = (ngt: string) =>
      db.selectFrom("carts").select("content_id").where("ngt", "=", ngt).where("user_id", "is", null).execute();

    it("the request pages take the requested items out of the anonymous cart, and the header's count follows", async () => {
      const jar = new Jar({ lng: "en" });
      const go = browser(jar);
      const items = take(3);
      const lines = await anonymousCart(go, items);
      expect(headerCount(await (await go("/cart")).text())).toBe(3);
      // Lines are newest first: ask for the two added first.
      expect(location(await go("/cart", { intent: "request", cart_id: lines.slice(1) }))).toBe("/pay-key");
      expect(location(await go("/pay-key", { serial: DEMO.licenses.b2bg.serial, email: "editor1@studio.example" }))).toBe("/request");
      const sent = await go("/request", { request_email: "kim@studio.example", message: "Demo Studio, Kim" });
      expect(location(sent)).toBe("/requestComp");
      const done = await (await go(location(sent))).text();
      expect(done).toContain("2 requested items left your cart.");
      expect(headerCount(done)).toBe(1);
      const row = await db.selectFrom("purchase_requests").select("id").orderBy("id", "desc").executeTakeFirstOrThrow();
      const requested = await db.selectFrom("purchase_request_items").select("content_id").where("request_id", "=", row.id).execute();
      expect(requested.map((r) => r.content_id).sort()).toEqual([items[0].id, items[1].id].sort());
      const cart = await (await go("/cart")).text();
      expect(headerCount(cart)).toBe(1);
      expect(cart).toContain(esc(items[2].title_en));
      expect(cart).not.toContain(esc(items[0].title_en));
    });

    it("the webview's request and the API's take them out of the caller's cart too", async () => {
      // The webview: the editor's headers name the key, the webview's cookie jar holds the cart.
      const jar = new Jar({ lng: "en" });
      const go = browser(jar);
      const items = take(2);
      const lines = await anonymousCart(go, items);
      const editor = { license_id: DEMO.licenses.b2bg.serial, hw_info: DEMO.licenses.b2bg.hw_info, "accept-language": "en" };
      expect(jar.take(await call("/mypage/sw/request", { headers: { ...editor, cookie: jar.header } })).status).toBe(200);
      const body = new URLSearchParams([
        ["cart_id", lines[0]],
        ["request_email", "kim@studio.example"],
        ["message", "Demo Studio, Kim"],
      ]);
      const sent = await call("/mypage/sw/request", {
        method: "POST",
        body,
        headers: { ...editor, cookie: jar.header, "content-type": "application/x-www-form-urlencoded" },
      });
      expect(sent.status).toBe(200);
      expect(await sent.text()).toContain("1 requested item left your cart.");
      // Lines are newest first: the first line is the second item.
      const ngt = (await db.selectFrom("carts").select("ngt").where("content_id", "=", items[1].id).executeTakeFirst())?.ngt;
      expect(ngt).toBeUndefined();
      const left = await db
        .selectFrom("carts")
        .select(["ngt", "content_id"])
        .where("content_id", "=", items[0].id)
        .where("user_id", "is", null)
        .execute();
      expect(left).toHaveLength(1);
      // The API: the ngt header's cart, and the cart count in the answer.
      const token = left[0].ngt as string;
      const [more] = take(1);
      await db
        .insertInto("carts")
        .values({ user_id: null, ngt: token, content_id: more.id, level_flag: 0, created_at: new Date().toISOString() })
        .execute();
      const res = await call("/api/v1/requests", {
        method: "POST",
        headers: { language: "en", "content-type": "application/json", ngt: token },
        body: JSON.stringify({
          message: "Demo Studio, Kim",
          request_email: "kim@studio.example",
          license_id: DEMO.licenses.b2bg.serial,
          license_email: "editor1@studio.example",
          item_list: [more.code],
        }),
      });
      expect(res.status).toBe(200);
      expect((await res.json()).data.cart_count).toBe(1);
      expect((await ngtLines(token)).map((r) => r.content_id)).toEqual([items[0].id]);
    });
  });

  describe("already yours (point 3)", () => {
    /** A paid order of these items for a licence, usable 90 days (written straight in, as a settled order is). */
    async function bought(licenseId: number, userId: number | null, items: Item[], category = "member") {
      const at = new Date().toISOString();
      const until = new Date(Date.now() + 90 * 86_400_000).toISOString();
      const order = await db
        .insertInto("orders")
        .values({
          order_no: `MKT-CARE-${randomBytes(4).toString("hex").toUpperCase()}`,
          user_id: userId,
          license_id: licenseId,
          purchase_category: category,
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
          ptime: at,
          created_at: at,
          order_name: "Care",
          coupon_code: null,
          vbank_bank: null,
          vbank_account: null,
          vbank_holder: null,
          failure_message: null,
          pending_reason: null,
          updated_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("order_items")
        .values(
          items.map((i) => ({
            order_id: order.id,
            content_id: i.id,
            pass_price_id: null,
            quantity: 1,
            unit_price: 1000,
            vat: 100,
            status: "active",
            first_downloaded_at: null,
            expires_at: until,
            item_type: i.contents_type,
            cancelled_at: null,
          })),
        )
        .execute();
      return order.id;
    }
    const notice = (html: string) => html.match(/<section class="overlap-notice"[\s\S]*?<\/section>/)?.[0] ?? "";

    it("the cart names what a licence already holds and removes those lines in one action; the API answers the same rule", async () => {
      const s = await newShopper(db);
      const go = browser(s.jar);
      const [held, fresh] = take(2);
      await bought(s.licenseId, s.userId, [held]);
      await putInCart(s.userId, [held, fresh]);
      const cart = await (await go("/cart")).text();
      const box = notice(cart);
      expect(box).toContain("Already yours");
      expect(box).toContain(esc(held.title_en));
      expect(box).toContain(s.serial);
      expect(box).not.toContain(esc(fresh.title_en));
      const heldLine = String((await cartRows(s.userId)).find((r) => r.content_id === held.id)?.id);
      expect(box).toContain(`name="held_id" value="${heldLine}"`);
      const removed = await (await go("/cart", { intent: "removeHeld", held_id: heldLine })).text();
      expect(formResult(removed)).toBe("1 item you already hold was removed.");
      expect(notice(removed)).toBe("");
      expect((await cartRows(s.userId)).map((r) => r.content_id)).toEqual([fresh.id]);
      // The editor's API answers by the same rule.
      const res = await call("/api/v1/users/contents/overlap", {
        method: "POST",
        headers: { language: "en", "content-type": "application/json", license_id: s.serial, hw_info: s.hwInfo },
        body: JSON.stringify({ contents_list: [{ item_code: held.code }, { item_code: fresh.code }] }),
      });
      expect((await res.json()).data.list).toEqual([
        { item_code: held.code, owned: true },
        { item_code: fresh.code, owned: false },
      ]);
    });

    it("/pay01 and /pay02 (once the licence is chosen) show it and drop it from the checkout in one action", async () => {
      const s = await newShopper(db);
      const go = browser(s.jar, "ko");
      const [held, fresh] = take(2);
      await bought(s.licenseId, s.userId, [held]);
      await putInCart(s.userId, [held, fresh]);
      const lines = (await cartRows(s.userId)).map((r) => String(r.id));
      expect(location(await go("/cart", { intent: "buy", cart_id: lines }))).toBe("/pay01");
      const step1 = await (await go("/pay01")).text();
      expect(notice(step1)).toContain("이미 보유한 상품");
      expect(notice(step1)).toContain(esc(held.title_ko));
      expect(payLines(step1)).toBe(2);
      // The licence is chosen on /pay02: it holds one item, so the page stays and says so.
      const chose = await go("/pay02", { choice: String(s.licenseId) });
      expect(location(chose)).toBe("/pay02");
      const step2 = await (await go("/pay02")).text();
      expect(notice(step2)).toContain(s.serial);
      expect(notice(step2)).toContain(esc(held.title_ko));
      expect(notice(step2)).toContain('href="/pay03"');
      const dropped = await go("/pay02", { intent: "drop", drop: String(held.id) });
      expect(location(dropped)).toBe("/pay03");
      const step3 = await (await go("/pay03")).text();
      expect(payLines(step3)).toBe(1);
      expect(step3).toContain(esc(fresh.title_ko));
      expect(step3).not.toContain(esc(held.title_ko));
      // The cart is not touched by dropping from the checkout.
      expect(await cartRows(s.userId)).toHaveLength(2);
      // /pay01 drops in one action too.
      expect(location(await go("/cart", { intent: "buy", cart_id: lines }))).toBe("/pay01");
      expect(location(await go("/pay01", { intent: "drop", drop: String(held.id) }))).toBe("/pay01");
      const again = await (await go("/pay01")).text();
      expect(payLines(again)).toBe(1);
      expect(notice(again)).toBe("");
    });

    it("the representative paying requests sees what the key holds and what another waiting request asks for, and drops them", async () => {
      const rep = await db.selectFrom("users").select(["id"]).where("email", "=", DEMO.business.email).executeTakeFirstOrThrow();
      const keyRow = await db
        .selectFrom("licenses")
        .select(["id"])
        .where("serial", "=", DEMO.licenses.b2bg.serial)
        .executeTakeFirstOrThrow();
      const [held, twice, fresh] = take(3);
      await bought(keyRow.id, rep.id, [held], "request");
      const { createPurchaseRequest } = await import("../../app/market/requests/requests.server");
      const { businessKeyById } = await import("../../app/market/requests/lookup.server");
      const key = await businessKeyById(db, keyRow.id);
      const ask = (ids: number[]) =>
        createPurchaseRequest(db, {
          key,
          requestEmail: "kim@studio.example",
          message: "Demo Studio, Kim",
          contentIds: ids,
          locale: "ko",
          origin: "http://store.test",
          ip: `198.51.100.${ipNo++}`,
        });
      const earlier = await ask([twice.id]);
      const paying = await ask([held.id, twice.id, fresh.id]);
      const login = await call("/login", {
        method: "POST",
        body: new URLSearchParams({ email: DEMO.business.email, password: DEMO.password }),
        headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "ko" },
      });
      const jar = new Jar({ lng: "ko" });
      jar.take(login);
      const go = browser(jar, "ko");
      // The list says it before anything is selected: each waiting request's own note, by the same rule.
      const list = await (await go("/mypage/purchase")).text();
      const row = (no: string) => list.match(new RegExp(`<tr>(?:(?!</tr>)[\\s\\S])*?>${no}</a>[\\s\\S]*?</tr>`))?.[0] ?? "";
      const note = (no: string) => row(no).match(/<small class="request-overlap">[\s\S]*?<\/small>/)?.[0] ?? "";
      expect(note(paying.requestNo)).toContain("이 키가 이미 보유한 콘텐츠 1개 포함");
      expect(note(paying.requestNo)).toContain(`${earlier.requestNo}에서도 요청한 콘텐츠 포함`);
      expect(note(earlier.requestNo)).toContain(`${paying.requestNo}에서도 요청한 콘텐츠 포함`);
      expect(note(earlier.requestNo)).not.toContain("보유한");
      expect(location(await go("/mypage/purchase", { intent: "pay", request: String(paying.id) }))).toBe("/pay01");
      const step1 = await (await go("/pay01")).text();
      const box = notice(step1);
      expect(box).toContain(DEMO.licenses.b2bg.serial);
      expect(box).toContain(esc(held.title_ko));
      expect(box).toContain(esc(twice.title_ko));
      expect(box).toContain(earlier.requestNo);
      expect(box).not.toContain(esc(fresh.title_ko));
      expect(payLines(step1)).toBe(3);
      expect(location(await go("/pay01", { intent: "drop", drop: [String(held.id), String(twice.id)] }))).toBe("/pay01");
      const after = await (await go("/pay01")).text();
      expect(payLines(after)).toBe(1);
      expect(after).toContain(esc(fresh.title_ko));
      expect(notice(after)).toBe("");
    });

    it("the key-only user's request form shows what the key holds or already asked for, and drops it", async () => {
      const jar = new Jar({ lng: "en" });
      const go = browser(jar);
      const [asked, fresh] = take(2);
      const keyRow = await db
        .selectFrom("licenses")
        .select(["id"])
        .where("serial", "=", DEMO.licenses.b2bg.serial)
        .executeTakeFirstOrThrow();
      const { createPurchaseRequest } = await import("../../app/market/requests/requests.server");
      const { businessKeyById } = await import("../../app/market/requests/lookup.server");
      const first = await createPurchaseRequest(db, {
        key: await businessKeyById(db, keyRow.id),
        requestEmail: "kim@studio.example",
        message: "Demo Studio, Kim",
        contentIds: [asked.id],
        locale: "en",
        origin: "http://store.test",
        ip: `198.51.100.${ipNo++}`,
      });
      for (const i of [asked, fresh]) await go("/cart", { intent: "add", code: i.code, redirectTo: "/cart" });
      const lines = [...(await (await go("/cart")).text()).matchAll(/name="cart_id" id="cart-(\d+)"/g)].map((m) => m[1]);
      await go("/cart", { intent: "request", cart_id: lines });
      expect(location(await go("/pay-key", { serial: DEMO.licenses.b2bg.serial, email: "editor1@studio.example" }))).toBe("/request");
      const form = await (await go("/request")).text();
      expect(notice(form)).toContain(esc(asked.title_en));
      expect(notice(form)).toContain(first.requestNo);
      expect(location(await go("/request", { intent: "drop", drop: String(asked.id) }))).toBe("/request");
      const after = await (await go("/request")).text();
      expect(notice(after)).toBe("");
      expect(after).toContain(esc(fresh.title_en));
    });
  });
});
