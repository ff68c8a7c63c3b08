import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const en = { headers: { "accept-language": "en" } };
const ko = { headers: { "accept-language": "ko" } };

describe(`catalog pages on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let dataDir: string;
  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, dataDir } = t);
    call = await createTestApp(db, { dataDir });
  });
  afterAll(() => drop());
  // React separates adjacent text with <!-- --> in server HTML; a reader does not see it.
  const html = async (path: string, init = en) => (await (await call(path, init)).text()).replaceAll("<!-- -->", "");

  it("every category has its own keywords, like its title and description, on landings, lists, details and search (issue 18, point 10)", async () => {
    const keywordsOf = (body: string) => /<meta name="keywords" content="([^"]*)"/.exec(body)?.[1] ?? null;
    const descriptionOf = (body: string) => /<meta name="description" content="([^"]*)"/.exec(body)?.[1] ?? null;
    const seen = new Map<string, string>();
    for (const [space, init, word] of [
      ["video", en, "stock video"],
      ["audio", en, "background music"],
      ["font", en, "fonts"],
      ["video", ko, "영상 소스"],
      ["audio", ko, "배경음악"],
      ["font", ko, "폰트"],
    ] as const) {
      const landing = await html(`/${space}`, init);
      const keywords = keywordsOf(landing) ?? "";
      expect(keywords, space).toContain(word);
      expect([...seen.values()], space).not.toContain(keywords);
      seen.set(`${space}-${init.headers["accept-language"]}`, keywords);
      const list = await html(`/list/${space}/all`, init);
      expect(keywordsOf(list)).toBe(keywords);
      expect(descriptionOf(list)).toBe(descriptionOf(landing));
      expect(keywordsOf(await html(`/search/${space}`, init))).toBe(keywords);
      const item = await db
        .selectFrom("contents")
        .select(["code", "title_en", "title_ko"])
        .where("contents_type", "=", space)
        .where("status", "=", "active")
        .executeTakeFirstOrThrow();
      const detail = keywordsOf(await html(`/contents/${space}?code=${item.code}`, init)) ?? "";
      expect(detail.endsWith(keywords)).toBe(true);
    }
    expect(keywordsOf(await html("/search/all"))).toBe(keywordsOf(await html("/")));
  });

  it("a package shows its discontinued members as such, without a price, and counts what remains (issue 18, point 11)", async () => {
    const pkg = await db
      .selectFrom("contents")
      .select(["id", "code"])
      .where("contents_type", "=", "package")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    const members = await db
      .selectFrom("package_items")
      .innerJoin("contents", "contents.id", "package_items.content_id")
      .select(["contents.id", "contents.title_en"])
      .where("package_items.package_id", "=", pkg.id)
      .orderBy("package_items.sort")
      .execute();
    expect(members.length).toBeGreaterThan(1);
    const gone = members[0];
    await db.updateTable("contents").set({ status: "discontinued" }).where("id", "=", gone.id).execute();
    try {
      const body = await html(`/contents/package?code=${pkg.code}`);
      expect(body).toContain(`${members.length - 1} items (1 discontinued)`);
      const card = body.split('<li class="card').find((c) => c.includes(gone.title_en.replaceAll("&", "&amp;"))) ?? "";
      expect(card).toContain('class="card-discontinued">This content has been discontinued<');
      expect(card).not.toContain('class="price');
    } finally {
      await db.updateTable("contents").set({ status: "active" }).where("id", "=", gone.id).execute();
    }
  });

  it("home shows key visuals, best sellers per category, categories, genres, moods and popular keywords", async () => {
    const body = await html("/");
    expect(body).toContain("Assets that finish your edit");
    for (const [space, name] of [
      ["video", "Video"],
      ["icon", "Icon"],
      ["audio", "Audio"],
      ["font", "Font"],
    ]) {
      expect(body).toMatch(new RegExp(`<h2 id="best-${space}">${name}[^<]*Best sellers</h2>`));
    }
    for (const heading of ["Popular categories", "Genres", "Moods", "Popular searches"]) expect(body).toContain(heading);
    expect(body).toContain("/search/all?keywords=piano");
  });

  it("home in service-stop mode shows only the notice image with alt text in both languages", async () => {
    const stopped = await createTestApp(db, { dataDir, env: { HOME_MODE: "service-stop" } });
    const body = await (await stopped("/", en)).text();
    // The picture says it (its words drawn in it, issue 26 point 4), and its alternative text says the same.
    expect(body).toContain('src="/pictures/service-stop-en.svg"');
    expect(body).toContain('alt="Service suspended. The VideoAsset Market service has been suspended. Thank you for using the market."');
    expect(body).not.toContain("Best sellers");
    const kor = await (await stopped("/", ko)).text();
    expect(kor).toContain('src="/pictures/service-stop-ko.svg"');
    expect(kor).toContain('alt="서비스 운영 중단 안내. 비디오에셋 마켓 서비스가 중단되었습니다. 그동안 이용해 주셔서 감사합니다."');
  });

  it("lists a category in pages of 24 with working page links, most popular first", async () => {
    const cat = await db
      .selectFrom("contents")
      .select(["category_id", sql<number>`count(*)`.as("n")])
      .where("contents_type", "=", "audio")
      .where("status", "=", "active")
      .groupBy("category_id")
      .orderBy("n", "desc")
      .executeTakeFirstOrThrow();
    const all = await db
      .selectFrom("contents")
      .select(["code"])
      .where("category_id", "=", cat.category_id)
      .where("status", "=", "active")
      .orderBy("popularity", "desc")
      .orderBy("id")
      .execute();
    const page1 = await html(`/list/audio/${cat.category_id}`);
    const codes = (body: string) => [...new Set([...body.matchAll(/\/contents\/audio\?code=([A-Z]{2}\d{7})/g)].map((m) => m[1]))];
    expect(codes(page1)).toEqual(all.slice(0, 24).map((r) => r.code));
    expect(page1).toContain(`${Number(cat.n)} items`);
    if (all.length > 24) {
      expect(page1).toContain(`href="/list/audio/${cat.category_id}?page=2"`);
      expect(codes(await html(`/list/audio/${cat.category_id}?page=2`))).toEqual(all.slice(24, 48).map((r) => r.code));
    }
  });

  it("lists newest first with sort=recent, redirects past the last page, and 404s unknown lists", async () => {
    const newest = await db
      .selectFrom("contents")
      .select("code")
      .where("contents_type", "=", "icon")
      .where("status", "=", "active")
      .orderBy("released_at", "desc")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    expect(await html("/list/icon/all?sort=recent")).toMatch(new RegExp(`code=${newest.code}`));
    const past = await call("/list/icon/all?page=999", en);
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toMatch(/^\/list\/icon\/all\?page=\d+$/);
    for (const bad of ["/list/nope/all", "/list/audio/abc", "/list/audio/99999"])
      expect((await call(bad, en)).headers.get("location")).toBe("/404");
  });

  it("lists Free & Benefit: /benefit links to /list/benefit/all, which pages free and benefit items of every type, and a category narrows it", async () => {
    const landing = await html("/benefit");
    expect(landing).toContain('href="/list/benefit/all"');
    expect(landing).toContain('href="/list/benefit/all?sort=recent"');
    const count = async (where: (q: any) => any) =>
      Number(
        (
          await where(
            db.selectFrom("contents").select(sql<number>`count(*)`.as("n")).where("status", "=", "active"),
          ).executeTakeFirstOrThrow()
        ).n,
      );
    const total = await count((q) => q.where("price_type", "in", ["free", "benefit"]));
    expect(total).toBeGreaterThan(0);
    const all = await call("/list/benefit/all", en);
    expect(all.status).toBe(200);
    const body = (await all.text()).replaceAll("<!-- -->", "");
    expect(body).toContain("<h1>Free &amp; Benefit</h1>");
    expect(body).toContain(`${total.toLocaleString("en")} item`);
    const shown = [...body.matchAll(/code=([\w-]+)/g)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThan(0);
    const prices = await db.selectFrom("contents").select("price_type").where("code", "in", shown).execute();
    expect(new Set(prices.map((p) => p.price_type))).not.toContain("paid");
    // A category of one type narrows it to that category's free and benefit items.
    const cat = await db
      .selectFrom("contents")
      .select(["category_id", sql<number>`count(*)`.as("n")])
      .where("status", "=", "active")
      .where("price_type", "in", ["free", "benefit"])
      .where("category_id", "is not", null)
      .groupBy("category_id")
      .orderBy("n", "desc")
      .executeTakeFirstOrThrow();
    const one = await call(`/list/benefit/${cat.category_id}`, en);
    expect(one.status).toBe(200);
    expect((await one.text()).replaceAll("<!-- -->", "")).toContain(`${Number(cat.n).toLocaleString("en")} item`);
    expect((await call("/list/benefit/99999", en)).headers.get("location")).toBe("/404");
  });

  it("shows the editor's market modules on /modules with what the catalog holds for each, in both languages", async () => {
    const res = await call("/modules", en);
    expect(res.status).toBe(200);
    const body = (await res.text()).replaceAll("<!-- -->", "");
    expect(body).toContain("<h1>Market modules in the editor</h1>");
    expect(body).toContain("version 2.0.4.7.0 or later");
    for (const type of ["video", "icon", "audio", "font", "package"] as const) {
      const n = Number(
        (
          await db
            .selectFrom("contents")
            .select(sql<number>`count(*)`.as("n"))
            .where("status", "=", "active")
            .where("contents_type", "=", type)
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(body).toContain(`href="/${type}"`);
      expect(body).toContain(`${n.toLocaleString("en")} item`);
    }
    expect(await html("/modules", ko)).toContain("편집 프로그램의 마켓 모듈");
  });

  it("filters packages by package category", async () => {
    const cat = await db
      .selectFrom("taxonomy")
      .select(["id", "name_en"])
      .where("kind", "=", "category")
      .where("space", "=", "package")
      .orderBy("sort")
      .executeTakeFirstOrThrow();
    const body = await html(`/list/package/${cat.id}`);
    expect(body).toContain("Package categories");
    expect(body).toContain(`<h1>${cat.name_en}</h1>`);
    const inCat = await db.selectFrom("contents").select("code").where("category_id", "=", cat.id).where("status", "=", "active").execute();
    const shown = [...body.matchAll(/\/contents\/(\w+)\?code=([A-Z]{2}\d{7})/g)];
    expect(shown.length).toBeGreaterThan(0);
    for (const m of shown) {
      expect(m[1]).toBe("package");
      expect(inCat.map((r) => r.code)).toContain(m[2]);
    }
  });

  it("shows an audio detail page with its player, BPM band, genre, mood, prices with VAT and Product data", async () => {
    const row = await db
      .selectFrom("contents")
      .selectAll()
      .where("contents_type", "=", "audio")
      .where("contents_type_sub", "=", 3002)
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    const body = await html(`/contents/audio?code=${row.code}`, ko);
    expect(body).toContain(`<h1>${row.title_ko}</h1>`);
    expect(body).toContain(`<audio src="${row.preview_path}"`);
    expect(body).toContain(`${row.bpm} · `);
    const vat = Math.round(row.price_krw / 10);
    expect(body).toContain(`₩${(row.price_krw + vat).toLocaleString("en-US")}`);
    expect(body).toContain(`₩${vat.toLocaleString("en-US")}`);
    expect(body).toContain('"@type":"Product"');
    expect(body).toContain(`"sku":"${row.code}"`);
    expect(body).toContain(`rel="canonical" href="http://store.test/contents/audio?code=${row.code}"`);
  });

  it("shows free and benefit requirements, the discontinued message, and redirects a wrong type", async () => {
    const free = await db
      .selectFrom("contents")
      .select(["code", "contents_type"])
      .where("price_type", "=", "free")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    expect(await html(`/contents/${free.contents_type}?code=${free.code}`)).toContain(
      "Free content needs the licensed editor and a market account.",
    );
    const benefit = await db
      .selectFrom("contents")
      .select(["code", "contents_type"])
      .where("price_type", "=", "benefit")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    expect(await html(`/contents/${benefit.contents_type}?code=${benefit.code}`)).toContain("Benefit content needs a paid purchase.");
    const gone = await db.selectFrom("contents").select(["code", "contents_type"]).where("status", "=", "discontinued").executeTakeFirst();
    const target =
      gone ??
      (await db
        .updateTable("contents")
        .set({ status: "discontinued" })
        .where("contents_type", "=", "icon")
        .returning(["code", "contents_type"])
        .executeTakeFirstOrThrow());
    const goneBody = await html(`/contents/${target.contents_type}?code=${target.code}`);
    expect(goneBody).toContain("This content has been discontinued");
    expect(goneBody).not.toContain("Add to cart");
    const wrong = await call(`/contents/${target.contents_type === "video" ? "icon" : "video"}?code=${target.code}`, en);
    expect(wrong.status).toBe(301);
    expect(wrong.headers.get("location")).toBe(`/contents/${target.contents_type}?code=${target.code}`);
    expect((await call("/contents/video?code=nope", en)).headers.get("location")).toBe("/404");
  });

  it("shows a package's bundled video, icon and audio items", async () => {
    const pkg = await db
      .selectFrom("contents")
      .select(["id", "code"])
      .where("contents_type", "=", "package")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    const items = await db
      .selectFrom("package_items")
      .innerJoin("contents", "contents.id", "package_items.content_id")
      .select(["contents.code", "contents.contents_type"])
      .where("package_id", "=", pkg.id)
      .execute();
    const body = await html(`/contents/package?code=${pkg.code}`);
    expect(body).toContain(`In this package · ${items.length} items`);
    for (const it of items) expect(body).toContain(`/contents/${it.contents_type}?code=${it.code}`);
  });

  it("renders the font preview with a subset font for the typed text, capped at 100 characters", async () => {
    const font = await db
      .selectFrom("contents")
      .select("code")
      .where("contents_type", "=", "font")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    const text = "가".repeat(120);
    const body = await html(`/contents/font?code=${font.code}&text=${encodeURIComponent(text)}`);
    expect(body).toContain(`font/subset?contents_code=${font.code}&text=${encodeURIComponent("가".repeat(100))}"`);
    expect(body).toContain(`value="${"가".repeat(100)}"`);
    expect(body).toContain('maxLength="200"');
  });

  it("shows the pricing page: six pass groups in ascending sizes, single-use ranges, packages and notes", async () => {
    const body = await html("/price");
    for (const name of ["Video pass", "Icon pass", "Background music pass", "Sound effect pass", "AI background music pass", "Font pass"])
      expect(body).toContain(name);
    expect(body.indexOf("5 clips")).toBeLessThan(body.indexOf("10 clips"));
    expect(body).toContain("Business members cannot buy subscriptions.");
    expect(body).toContain('href="/support"');
    const range = await db
      .selectFrom("contents")
      .select((eb) => [eb.fn.min<number>("price_usd").as("min"), eb.fn.max<number>("price_usd").as("max")])
      .where("contents_type", "=", "video")
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    expect(body).toContain(`$${(Number(range.min) / 100).toFixed(2)} – $${(Number(range.max) / 100).toFixed(2)}`);
  });

  it("shows a pass detail page with its options and a buy button that asks anonymous visitors to sign in", async () => {
    const body = await html("/price/audio-bgm", ko);
    expect(body).toContain("<h1>배경음악 이용권</h1>");
    expect(body).toContain("5곡");
    expect(body).toContain("10곡");
    expect(body).toContain('action="/login"');
    expect(body).toContain("로그인하고 구매하기");
    expect((await call("/price/nope", en)).headers.get("location")).toBe("/404");
  });

  it("puts an item in the cart from its page and comes back to it; Buy now is a checkout of that item alone", async () => {
    const item = await db
      .selectFrom("contents")
      .select(["code", "contents_type", "title_en"])
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    const here = `/contents/${item.contents_type}?code=${item.code}`;
    const page = await html(here);
    const back = here.replaceAll("&", "&amp;");
    // Add to cart comes back to the item (with the outcome); Buy now posts intent buyNow (tests/integration/cart-care.test.ts).
    expect(page).toContain(
      `<input type="hidden" name="intent" value="add"/><input type="hidden" name="code" value="${item.code}"/><input type="hidden" name="redirectTo" value="${back}"/>`,
    );
    expect(page).toContain('<input type="hidden" name="intent" value="buyNow"/>');
    const res = await call("/cart", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      body: new URLSearchParams({ intent: "add", code: item.code, redirectTo: here }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${here}&cart=SUCCESS`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(await html("/cart", { headers: { "accept-language": "en", cookie } } as typeof en)).toContain(item.title_en);
  });

  it("lists notices 15 a page, pinned first, and shows one", async () => {
    const all = await db
      .selectFrom("notices")
      .select(["id", "title_en", "pinned"])
      .orderBy("pinned", "desc")
      .orderBy("published_at", "desc")
      .orderBy("id", "desc")
      .execute();
    const page1 = await html("/notice");
    const ids = [...page1.matchAll(/href="\/notice\/(\d+)"/g)].map((m) => Number(m[1]));
    expect(ids).toEqual(all.slice(0, 15).map((n) => n.id));
    expect(page1).toContain('href="/notice?page=2"');
    const page2 = await html("/notice?page=2");
    expect([...page2.matchAll(/href="\/notice\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual(all.slice(15, 30).map((n) => n.id));
    expect(await html(`/notice/${all[0].id}`)).toContain(`<h1>${all[0].title_en}</h1>`);
    expect((await call("/notice/99999", en)).headers.get("location")).toBe("/404");
  });
});
