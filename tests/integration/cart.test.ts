import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { Content } from "../../app/db/schema";
import { DEMO } from "../../app/db/seed/index.server";
import { addToCart, type CartOwner, countCart, listCart, removeFromCart } from "../../app/market/cart.server";
import { shopCookies } from "../../app/utils/cookies.server";
import { parseEnv } from "../../app/utils/env.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

const DAY = 86_400_000;
const EN = { "accept-language": "en" };
const TYPES = ["video", "icon", "audio", "font", "package"] as const;
const anon = (ngt: string): CartOwner => ({ userId: null, ngt });
const codes = (items: Content[]) => items.map((i) => ({ code: i.code }));
const sortIds = (ids: number[]) => [...ids].sort((a, b) => a - b);
const form = (fields: Record<string, string> | [string, string][], cookie?: string) => ({
  method: "POST",
  body: new URLSearchParams(fields),
  headers: { "content-type": "application/x-www-form-urlencoded", ...EN, ...(cookie ? { cookie } : {}) },
});
const cookieOf = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
/** The text of the page's form-result status, and of the detail page's timed cart message. */
const formResult = (html: string) => html.match(/class="form-result(?: is-error)?">([^<]*)</)?.[1];
const timedMessage = (html: string) => html.match(/class="timed-message[^"]*" role="status"[^>]*>([^<]*)</)?.[1];
const headerCount = (html: string) => Number(html.match(/data-testid="cart-count">(\d+)</)?.[1]);
const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
const usd = (cents: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
/** The anonymous cart token an `ngt=...` cookie carries (signed with the test app's secret). */
const tokenOf = async (cookie: string) =>
  (await shopCookies(parseEnv({ SESSION_SECRET: "test-secret-test-secret" })).ngt.parse(cookie)) as string;
const detail = (item: Content) => `/contents/${item.contents_type}?code=${item.code}`;

describe(`cart and favorites on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let paid: Content[];
  let free: Content;
  let benefit: Content;
  let gone: Content;
  let memberId: number;
  let memberCookie: string;
  let gt: string;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    const rows = await db.selectFrom("contents").selectAll().orderBy("id").execute();
    const active = rows.filter((r) => r.status === "active");
    paid = active.filter((r) => r.price_type === "paid");
    free = active.find((r) => r.price_type === "free") as Content;
    benefit = active.find((r) => r.price_type === "benefit") as Content;
    gone = rows.find((r) => r.status === "discontinued" && r.price_type === "paid") ?? (paid.pop() as Content);
    await db.updateTable("contents").set({ status: "discontinued" }).where("id", "=", gone.id).execute();
    expect(paid.length).toBeGreaterThan(102);
    expect(free && benefit).toBeTruthy();
    memberId = (await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirstOrThrow()).id;
    const login = await call("/login", form({ email: DEMO.member.email, password: DEMO.password }));
    expect(login.status).toBe(302);
    memberCookie = ["gt", "gsi"].map((n) => cookieOf(login, n)?.split(";")[0]).join("; ");
    gt = (cookieOf(login, "gt") as string).split(";")[0].slice("gt=".length);
  });
  afterAll(() => drop());

  const member = (): CartOwner => ({ userId: memberId, ngt: null });
  const cartOf = (owner: CartOwner) => {
    const q = db.selectFrom("carts").select(["id", "content_id", "created_at", "level_flag"]).orderBy("id");
    return (owner.userId ? q.where("user_id", "=", owner.userId) : q.where("ngt", "=", owner.ngt).where("user_id", "is", null)).execute();
  };
  const insertLines = (owner: CartOwner, items: Content[], at = new Date()) =>
    db
      .insertInto("carts")
      .values(items.map((i) => ({ user_id: owner.userId, ngt: owner.ngt, content_id: i.id, level_flag: 0, created_at: at.toISOString() })))
      .execute();
  const favoritesOf = (userId: number) =>
    db.selectFrom("interests").select(["id", "content_id"]).where("user_id", "=", userId).orderBy("id").execute();
  const page = async (path: string, cookie?: string) => (await call(path, { headers: { ...EN, ...(cookie ? { cookie } : {}) } })).text();
  const api = async (path: string, init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) => {
    const res = await call(`/api/v1/${path}`, {
      method: init.method ?? "GET",
      headers: { language: "en", "content-type": "application/json", ...init.headers },
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const body = await res.json();
    return { status: res.status, body, data: body.data };
  };

  describe("domain", () => {
    it("answers each add outcome, item by item, and counts only the owner's cart", async () => {
      const a = anon("outcomes");
      expect(await addToCart(db, a, codes([paid[0]]))).toEqual({ code: "SUCCESS", cartCount: 1, added: 1 });
      expect(await addToCart(db, a, codes([paid[0]]))).toEqual({ code: "ALREADY_HAVE_ITEM", cartCount: 1, added: 0 });
      expect((await addToCart(db, a, codes([free]))).code).toBe("FREE_CONTENT");
      expect((await addToCart(db, a, codes([benefit]))).code).toBe("FREE_CONTENT");
      expect((await addToCart(db, a, codes([gone]))).code).toBe("DISCONTINUED");
      expect(await db.selectFrom("contents").select("id").where("code", "=", "ZZ9999999").executeTakeFirst()).toBeUndefined();
      expect((await addToCart(db, a, [{ code: "ZZ9999999" }])).code).toBe("NOT_FOUND");
      // All or nothing per item: the free one is refused, the others go in, the first refusal is answered.
      expect(await addToCart(db, a, codes([paid[1], free, paid[2]]))).toEqual({ code: "FREE_CONTENT", cartCount: 3, added: 2 });
      expect((await cartOf(a)).map((r) => r.content_id)).toEqual([paid[0].id, paid[1].id, paid[2].id]);
      await db.deleteFrom("carts").where("user_id", "=", memberId).execute();
      expect(await addToCart(db, member(), [{ code: paid[0].code, levelFlag: 2 }])).toEqual({ code: "SUCCESS", cartCount: 1, added: 1 });
      expect((await db.selectFrom("carts").select("level_flag").where("user_id", "=", memberId).executeTakeFirstOrThrow()).level_flag).toBe(
        2,
      );
      expect(await countCart(db, a)).toBe(3);
      expect(await countCart(db, member())).toBe(1);
      expect(await countCart(db, { userId: null, ngt: null })).toBe(0);
      await expect(addToCart(db, { userId: null, ngt: null }, codes([paid[3]]))).rejects.toThrow(/owner/);
    });

    it("holds at most 100 items", async () => {
      const a = anon("limit");
      expect(await addToCart(db, a, codes(paid.slice(0, 101)))).toEqual({ code: "EXCEED_CART", cartCount: 100, added: 100 });
      expect((await cartOf(a)).length).toBe(100);
      expect((await addToCart(db, a, codes([paid[0]]))).code).toBe("ALREADY_HAVE_ITEM");
      expect((await addToCart(db, a, codes([paid[101]]))).code).toBe("EXCEED_CART");
      expect(await removeFromCart(db, a, [(await cartOf(a))[0].id])).toBe(1);
      expect(await addToCart(db, a, codes([paid[101]]))).toEqual({ code: "SUCCESS", cartCount: 100, added: 1 });
    });

    it("takes one add at a time per cart: the 100th item goes in once, and one item once", async () => {
      // A few rounds: without the lock, PostgreSQL lets both in most of the time, not every time.
      for (let round = 0; round < 3; round++) {
        const a = anon(`race-${round}`);
        await insertLines(a, paid.slice(0, 99));
        const results = await Promise.all([addToCart(db, a, codes([paid[99]])), addToCart(db, a, codes([paid[100]]))]);
        expect(results.map((r) => r.code).sort()).toEqual(["EXCEED_CART", "SUCCESS"]);
        expect((await cartOf(a)).length).toBe(100);
      }
      const b = anon("same-item");
      const same = await Promise.all(Array.from({ length: 20 }, () => addToCart(db, b, codes([paid[5]]))));
      expect(same.filter((r) => r.code === "SUCCESS")).toHaveLength(1);
      expect(same.filter((r) => r.code === "ALREADY_HAVE_ITEM")).toHaveLength(19);
      expect((await cartOf(b)).length).toBe(1);
    });

    it("forgets lines older than 30 days and deletes them on the next add", async () => {
      const a = anon("old");
      await insertLines(a, paid.slice(0, 3), new Date(Date.now() - 31 * DAY));
      await insertLines(a, [paid[3]], new Date(Date.now() - 29 * DAY));
      expect(await countCart(db, a)).toBe(1);
      expect((await listCart(db, a, "en")).lines.map((l) => l.id)).toEqual([paid[3].id]);
      expect(await addToCart(db, a, codes([paid[0]]))).toEqual({ code: "SUCCESS", cartCount: 2, added: 1 });
      expect(sortIds((await cartOf(a)).map((r) => r.content_id))).toEqual(sortIds([paid[0].id, paid[3].id]));
      // A full cart of expired lines is an empty cart.
      const b = anon("old-full");
      await insertLines(b, paid.slice(0, 100), new Date(Date.now() - 31 * DAY));
      expect(await addToCart(db, b, codes([paid[100]]))).toEqual({ code: "SUCCESS", cartCount: 1, added: 1 });
      expect((await cartOf(b)).length).toBe(1);
    });

    it("totals the payable lines in the visitor's currency, with counts per type and a type filter", async () => {
      const a = anon("totals");
      // A package with a discontinued member sells for less than its own price (packagePrice): take a whole one.
      const cut = await db
        .selectFrom("package_items")
        .innerJoin("contents", "contents.id", "package_items.content_id")
        .select("package_items.package_id")
        .where("contents.status", "!=", "active")
        .execute();
      const whole = (p: Content) => p.contents_type !== "package" || !cut.some((c) => c.package_id === p.id);
      const picks = [
        ...TYPES.map((t) => paid.find((p) => p.contents_type === t && whole(p))),
        paid.filter((p) => p.contents_type === "video")[1],
      ].filter((p): p is Content => Boolean(p));
      expect(picks.length).toBeGreaterThan(3);
      expect((await addToCart(db, a, codes(picks))).code).toBe("SUCCESS");
      await insertLines(a, [gone]); // shown, but discontinued lines are not charged
      const all = [...picks, gone];
      for (const locale of ["ko", "en"] as const) {
        const price = (c: Content) => (locale === "ko" ? c.price_krw : c.price_usd);
        for (const type of [undefined, ...TYPES]) {
          const view = await listCart(db, a, locale, type);
          const shown = all.filter((c) => !type || c.contents_type === type);
          const payable = picks.filter((c) => !type || c.contents_type === type);
          const amount = payable.reduce((n, c) => n + price(c), 0);
          const vat = payable.reduce((n, c) => n + Math.round(price(c) / 10), 0);
          expect(sortIds(view.lines.map((l) => l.id))).toEqual(sortIds(shown.map((c) => c.id)));
          expect(view.lines.every((l) => l.currency === (locale === "ko" ? "KRW" : "USD"))).toBe(true);
          expect({ amount: view.amount, vat: view.vat, total: view.total }).toEqual({ amount, vat, total: amount + vat });
          for (const t of TYPES) expect(view.counts[t]).toBe(all.filter((c) => c.contents_type === t).length);
        }
      }
      expect((await listCart(db, a, "en")).amount).toBeGreaterThan(0);
    });

    it("removes only the owner's lines", async () => {
      const a = anon("rm-a");
      const b = anon("rm-b");
      await addToCart(db, a, codes(paid.slice(0, 2)));
      await addToCart(db, b, codes(paid.slice(0, 1)));
      const [aLines, bLines] = [await cartOf(a), await cartOf(b)];
      expect(await removeFromCart(db, a, [aLines[0].id, bLines[0].id])).toBe(1);
      expect(await removeFromCart(db, member(), [aLines[1].id, bLines[0].id])).toBe(0);
      expect(await removeFromCart(db, { userId: null, ngt: null }, [aLines[1].id])).toBe(0);
      expect((await cartOf(a)).map((r) => r.id)).toEqual([aLines[1].id]);
      expect((await cartOf(b)).map((r) => r.id)).toEqual([bLines[0].id]);
    });
  });

  describe("pages", () => {
    it("adds without JavaScript: back to the page with the outcome, and an ngt cookie for 30 days", async () => {
      const [item, other] = [paid[10], paid[11]];
      const first = await call("/cart", form({ intent: "add", code: item.code, redirectTo: detail(item) }));
      expect(first.status).toBe(302);
      expect(first.headers.get("location")).toBe(`${detail(item)}&cart=SUCCESS`);
      const set = cookieOf(first, "ngt") as string;
      expect(set).toMatch(/HttpOnly/i);
      expect(set).toMatch(/Max-Age=2592000/);
      const cookie = set.split(";")[0];
      const ngt = await tokenOf(cookie);
      expect((await cartOf(anon(ngt))).map((r) => r.content_id)).toEqual([item.id]);
      expect(timedMessage(await page(first.headers.get("location") as string, cookie))).toBe("Added to cart");
      const again = await call("/cart", form({ intent: "add", code: item.code, redirectTo: detail(item) }, cookie));
      expect(again.headers.get("location")).toBe(`${detail(item)}&cart=ALREADY_HAVE_ITEM`);
      expect(timedMessage(await page(again.headers.get("location") as string, cookie))).toBe("Already added to cart");
      const freeAdd = await call("/cart", form({ intent: "add", code: free.code, redirectTo: detail(free) }, cookie));
      expect(freeAdd.headers.get("location")).toBe(`${detail(free)}&cart=FREE_CONTENT`);
      // The free item's page, which has no cart button, says why it was refused (issue 26.8).
      const refused = await page(freeAdd.headers.get("location") as string, cookie);
      expect(refused).toContain(
        '<p class="notice-box" role="status">Free and benefit content cannot be added to the cart; download it from the editor.</p>',
      );
      for (const redirectTo of ["//evil.example/x", "https://evil.example/x", "/\\evil.example"]) {
        const off = await call("/cart", form({ intent: "add", code: other.code, redirectTo }, cookie));
        expect(off.status).toBe(302);
        expect(off.headers.get("location")).toMatch(/^\/cart\?cart=(SUCCESS|ALREADY_HAVE_ITEM)$/);
      }
      expect((await cartOf(anon(ngt))).length).toBe(2);
    });

    it("answers data with js=1, as the add button's fetcher does", async () => {
      const res = await call("/cart.data", form({ intent: "add", code: paid[12].code, redirectTo: detail(paid[12]), js: "1" }));
      expect(res.status).toBe(200);
      expect(res.headers.get("location")).toBeNull();
      expect(cookieOf(res, "ngt")).toMatch(/HttpOnly/i);
      const body = await res.text();
      expect(body).toContain('"SUCCESS"');
      expect(body).not.toContain("<html");
      const again = await call(
        "/cart.data",
        form({ intent: "add", code: paid[12].code, js: "1" }, (cookieOf(res, "ngt") as string).split(";")[0]),
      );
      // Every outcome is content the page shows, not a failed request.
      expect(again.status).toBe(200);
      expect(await again.text()).toContain('"ALREADY_HAVE_ITEM"');
    });

    it("starts with every line selected, and keeps what was unticked across tabs, without JavaScript (issue 18, point 13)", async () => {
      const video = paid.filter((i) => i.contents_type === "video").slice(-2);
      const icon = paid.filter((i) => i.contents_type === "icon").slice(-1);
      const first = await call("/cart", form({ intent: "add", code: video[0].code }));
      const cookie = (cookieOf(first, "ngt") as string).split(";")[0];
      for (const i of [video[1], icon[0]]) await call("/cart", form({ intent: "add", code: i.code }, cookie));
      const lines = await cartOf(anon(await tokenOf(cookie)));
      const idOf = (item: Content) => (lines.find((l) => l.content_id === item.id) as { id: number }).id;
      const checked = (html: string) =>
        (html.match(/<input[^>]*name="cart_id"[^>]*>/g) ?? [])
          .filter((tag) => / checked=""/.test(tag))
          .map((tag) => Number(/value="(\d+)"/.exec(tag)?.[1]));
      expect(sortIds(checked(await page("/cart", cookie)))).toEqual(sortIds(lines.map((l) => l.id)));
      // On the video tab the second video is unticked; the tab button sends the form to the icon tab.
      const toIcons = await call(
        `/cart?${new URLSearchParams([
          ["shown", String(idOf(video[0]))],
          ["shown", String(idOf(video[1]))],
          ["cart_id", String(idOf(video[0]))],
          ["off_prev", ""],
          ["tab", "icon"],
        ])}`,
        { headers: { ...EN, cookie } },
      );
      expect(toIcons.status).toBe(302);
      const iconTab = toIcons.headers.get("location") as string;
      expect(iconTab).toBe(`/cart?type=icon&off=${idOf(video[1])}`);
      expect(checked(await page(iconTab, cookie))).toEqual([idOf(icon[0])]);
      // Back to all: the unticked video is still unticked, the rest ticked.
      const toAll = await call(
        `/cart?${new URLSearchParams([
          ["shown", String(idOf(icon[0]))],
          ["cart_id", String(idOf(icon[0]))],
          ["off_prev", String(idOf(video[1]))],
          ["tab", "all"],
        ])}`,
        { headers: { ...EN, cookie } },
      );
      const all = toAll.headers.get("location") as string;
      expect(all).toBe(`/cart?off=${idOf(video[1])}`);
      expect(sortIds(checked(await page(all, cookie)))).toEqual(sortIds([idOf(video[0]), idOf(icon[0])]));
    });

    it("lists the cart with totals and the header count, deletes lines, and moves members' lines to favorites", async () => {
      const items = paid.slice(20, 23);
      const first = await call("/cart", form({ intent: "add", code: items[0].code }));
      const cookie = (cookieOf(first, "ngt") as string).split(";")[0];
      for (const i of items.slice(1)) await call("/cart", form({ intent: "add", code: i.code }, cookie));
      const cents = items.reduce((n, i) => n + i.price_usd, 0);
      const vat = items.reduce((n, i) => n + Math.round(i.price_usd / 10), 0);
      const html = await page("/cart", cookie);
      for (const i of items) expect(html).toContain(esc(i.title_en));
      for (const amount of [cents, vat, cents + vat]) expect(html).toContain(usd(amount));
      expect(headerCount(html)).toBe(3);
      const ngt = await tokenOf(cookie);
      const lines = await cartOf(anon(ngt));
      expect(lines.length).toBe(3);
      // "Delete selected" asks first (issue 24, point 4); the confirmation's button deletes.
      const asked = await (await call("/cart", form({ intent: "remove", cart_id: String(lines[0].id) }, cookie))).text();
      expect(asked).toContain("Delete this item from the cart?");
      expect((await cartOf(anon(await tokenOf(cookie)))).length).toBe(3);
      const removed = await call("/cart", form({ intent: "removeConfirmed", cart_id: String(lines[0].id) }, cookie));
      expect(removed.status).toBe(200);
      const after = await removed.text();
      expect(formResult(after)).toBe("1 item deleted.");
      expect(headerCount(after)).toBe(2);
      expect(after).not.toContain(esc(items[0].title_en));
      const guest = await call("/cart", form({ intent: "favorite", cart_id: String(lines[1].id) }, cookie));
      expect(guest.status).toBe(200);
      expect(formResult(await guest.text())).toBe("Sign in to save favorites.");
      expect((await cartOf(anon(ngt))).length).toBe(2);
      // A member: two lines go to favorites; another visitor's line id is ignored.
      await db.deleteFrom("carts").where("user_id", "=", memberId).execute();
      await db.deleteFrom("interests").where("user_id", "=", memberId).execute();
      await addToCart(db, member(), codes(items));
      const mine = await cartOf(member());
      const moved = await call(
        "/cart",
        form(
          [["intent", "favorite"], ...[mine[0].id, mine[1].id, lines[1].id].map((id): [string, string] => ["cart_id", String(id)])],
          memberCookie,
        ),
      );
      expect(moved.status).toBe(200);
      const movedHtml = await moved.text();
      expect(formResult(movedHtml)).toBe("2 items moved to favorites.");
      expect(headerCount(movedHtml)).toBe(1);
      expect((await cartOf(member())).map((r) => r.id)).toEqual([mine[2].id]);
      expect(sortIds((await favoritesOf(memberId)).map((f) => f.content_id))).toEqual(sortIds([items[0].id, items[1].id]));
      expect((await cartOf(anon(ngt))).length).toBe(2);
      expect(formResult(await (await call("/cart", form({ intent: "remove" }, cookie))).text())).toBe("Select the items first.");
    });

    it("keeps the favorites page for members: add, list per type, remove, and move to the cart", async () => {
      const res = await call("/mypage/interest", { headers: EN });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toMatch(/^\/\?redirect=requires-auth&redirectTo=%2Fmypage%2Finterest/);
      expect((await call("/mypage/interest", form({ intent: "add", code: paid[0].code }))).status).toBe(302);
      await db.deleteFrom("interests").where("user_id", "=", memberId).execute();
      await db.deleteFrom("carts").where("user_id", "=", memberId).execute();
      const video = paid.find((p) => p.contents_type === "video") as Content;
      const icon = paid.find((p) => p.contents_type === "icon") as Content;
      for (let n = 0; n < 2; n++) {
        const add = await call("/mypage/interest", form({ intent: "add", code: video.code, redirectTo: detail(video) }, memberCookie));
        expect(add.status).toBe(302);
        expect(add.headers.get("location")).toBe(detail(video));
      }
      const js = await call("/mypage/interest.data", form({ intent: "add", code: icon.code, js: "1" }, memberCookie));
      expect(js.status).toBe(200);
      const favs = await favoritesOf(memberId);
      expect(favs.map((f) => f.content_id)).toEqual([video.id, icon.id]);
      const all = await page("/mypage/interest", memberCookie);
      for (const c of [video, icon]) expect(all).toContain(esc(c.title_en));
      const videos = await page("/mypage/interest?type=video", memberCookie);
      expect(videos).toContain(esc(video.title_en));
      expect(videos).not.toContain(esc(icon.title_en));
      const ids = favs.map((f): [string, string] => ["interest_id", String(f.id)]);
      const toCart = await call("/mypage/interest", form([["intent", "cart"], ...ids], memberCookie));
      expect(formResult(await toCart.text())).toBe("Added to cart");
      expect(sortIds((await cartOf(member())).map((r) => r.content_id))).toEqual(sortIds([video.id, icon.id]));
      expect((await favoritesOf(memberId)).length).toBe(2);
      const twice = await call("/mypage/interest", form([["intent", "cart"], ...ids], memberCookie));
      expect(formResult(await twice.text())).toBe("Already added to cart");
      const removed = await call("/mypage/interest", form({ intent: "remove", interest_id: String(favs[0].id) }, memberCookie));
      expect(formResult(await removed.text())).toBe("1 favorite removed.");
      expect((await favoritesOf(memberId)).map((f) => f.id)).toEqual([favs[1].id]);
    });
  });

  describe("API", () => {
    it("keeps a visitor's cart by the ngt header: add, list, count, refuse twice, delete", async () => {
      const item = paid[30];
      const add = await api("carts", {
        method: "POST",
        body: { contents_list: [{ item_code: item.code, item_type: item.contents_type, contents_file_type: 1 }] },
      });
      expect(add.status).toBe(200);
      expect(add.data).toMatchObject({ state: "SUCCESS", code: "SUCCESS", cart_count: 1 });
      const ngt = add.data.ngt as string;
      expect(ngt).toMatch(/^[\w-]{16,}$/);
      const lines = await cartOf(anon(ngt));
      expect(lines.map((r) => r.content_id)).toEqual([item.id]);
      const list = await api("carts", { headers: { ngt } });
      // A cart line in the spec's names (section 3): cart_id, item_code, item_type, level_flag as contents_file_type,
      // quantity, price, valid days; no camelCase on the wire.
      expect(list.data.list).toEqual([
        expect.objectContaining({
          cart_id: lines[0].id,
          item_code: item.code,
          item_type: item.contents_type,
          contents_file_type: lines[0].level_flag,
          quantity: 1,
          price: item.price_usd,
          valid_days: 90,
          price_type: "paid",
        }),
      ]);
      expect(Object.keys(list.data.list[0]).filter((k) => /[A-Z]/.test(k))).toEqual([]);
      expect(list.data).toMatchObject({ total_count: 1, amount: item.price_usd, vat: Math.round(item.price_usd / 10) });
      const otherType = TYPES.find((t) => t !== item.contents_type);
      expect((await api(`carts?item_type=${otherType}`, { headers: { ngt } })).data.total_count).toBe(0);
      expect((await api("carts/count", { headers: { ngt } })).data.cart_count).toBe(1);
      expect((await api("carts/count")).data.cart_count).toBe(0);
      const twice = await api("carts", { method: "POST", headers: { ngt }, body: { contents_list: [{ item_code: item.code }] } });
      expect(twice.status).toBe(409);
      expect(twice.body.result.code).toBe(409);
      expect(twice.data).toMatchObject({ state: "ERROR", code: "ALREADY_HAVE_ITEM", cart_count: 1 });
      expect((await api("carts", { method: "DELETE", body: { cart_id: [lines[0].id] } })).status).toBe(401);
      const del = await api("carts", { method: "DELETE", headers: { ngt }, body: { cart_id: [lines[0].id] } });
      expect(del.data).toMatchObject({ state: "SUCCESS", deleted: 1, cart_count: 0 });
      expect(await cartOf(anon(ngt))).toEqual([]);
    });

    it("refuses bad bodies with 400 naming the field", async () => {
      const bad = async (body: { raw?: string; body?: unknown }, mentions: string, method = "POST", path = "carts") => {
        const res = await api(path, { method, ...body });
        expect(res.status).toBe(400);
        expect(res.data.state).toBe("ERROR");
        expect(res.body.result.message).toContain(mentions);
      };
      await bad({ raw: "not json" }, "JSON");
      await bad({ body: { contents_list: [] } }, "contents_list");
      await bad({ body: { contents_list: [{ item_code: "bad" }] } }, "item_code");
      await bad({ body: { cart_id: [] } }, "cart_id", "DELETE");
      await bad({ body: { item_list: ["nope"] } }, "item_list", "POST", "interests");
    });

    it("serves a member's favorites and cart by the authorizationToken header", async () => {
      for (const [method, body] of [["GET"], ["POST", { item_list: [paid[0].code] }], ["DELETE", { interest_id: [1] }]] as const) {
        for (const headers of [{}, { authorizationToken: "not-a-session" }] as Record<string, string>[]) {
          const res = await api("interests", { method, body, headers });
          expect(res.status).toBe(401);
          expect(res.data.state).toBe("ERROR");
        }
      }
      await db.deleteFrom("interests").where("user_id", "=", memberId).execute();
      await db.deleteFrom("carts").where("user_id", "=", memberId).execute();
      const headers = { authorizationToken: gt };
      const items = [paid[40], paid[41]];
      const add = await api("interests", { method: "POST", headers, body: { item_list: items.map((i) => i.code) } });
      expect(add.data).toEqual({ state: "SUCCESS", added: 2 });
      expect((await api("interests", { method: "POST", headers, body: { item_list: [items[0].code] } })).data.added).toBe(0);
      const list = await api("interests", { headers });
      expect(sortIds(list.data.list.map((f: { id: number }) => f.id))).toEqual(sortIds(items.map((i) => i.id)));
      expect(list.data.total_count).toBe(2);
      const favs = await favoritesOf(memberId);
      const del = await api("interests", { method: "DELETE", headers, body: { interest_id: [favs[0].id] } });
      expect(del.data).toEqual({ state: "SUCCESS", deleted: 1 });
      expect((await favoritesOf(memberId)).map((f) => f.id)).toEqual([favs[1].id]);
      const cart = await api("carts", { method: "POST", headers, body: { contents_list: [{ item_code: items[0].code }] } });
      expect(cart.data).toEqual({ state: "SUCCESS", code: "SUCCESS", cart_count: 1 });
      expect((await cartOf(member())).map((r) => r.content_id)).toEqual([items[0].id]);
      expect((await api("carts/count", { headers })).data.cart_count).toBe(1);
    });
  });
});
