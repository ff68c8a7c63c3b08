import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { Content as Row } from "../../app/db/schema";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

type Lang = "ko" | "en";
type Card = { id: number; code: string; type: string; title: string; price: number; currency: string; price_type: string };

const PAGES = ["home", "video", "icon", "audio", "package", "benefit", "font"] as const;
const popular = (a: Row, b: Row) => b.popularity - a.popularity || a.id - b.id;
const recent = (a: Row, b: Row) => (a.released_at < b.released_at ? 1 : a.released_at > b.released_at ? -1 : a.id - b.id);
const ids = (list: { id: number }[]) => list.map((c) => c.id);
/** The answer lists exactly these rows, and there are some (so the comparison is never vacuous). */
const same = (list: { id: number }[], rows: { id: number }[]) => {
  expect(rows.length).toBeGreaterThan(0);
  expect(ids(list)).toEqual(ids(rows));
};

describe(`catalog API on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let active: Row[];
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    active = await db.selectFrom("contents").selectAll().where("status", "=", "active").execute();
  });
  afterAll(() => drop());

  const get = async (path: string, language: Lang = "en") => {
    const res = await call(`/api/v1/${path}`, { headers: { language } });
    const body = await res.json();
    if (res.status === 200) expect(body.result).toEqual({ code: 200, message: "SUCCESS" });
    return { status: res.status, body, data: body.data };
  };
  const expectFail = async (path: string, status: number, mentions?: string) => {
    const { status: got, body } = await get(path);
    expect(got, path).toBe(status);
    expect(body.result.code).toBe(status);
    expect(body.data.state).toBe("ERROR");
    if (mentions) expect(body.result.message, path).toContain(mentions);
  };
  const of = (pred: (r: Row) => boolean, order = popular) => active.filter(pred).sort(order);
  const countActive = async (where: { type?: string; prices?: string[]; category?: number }) => {
    let q = db.selectFrom("contents").select(db.fn.countAll().as("n")).where("status", "=", "active");
    if (where.type) q = q.where("contents_type", "=", where.type as "video");
    if (where.prices) q = q.where("price_type", "in", where.prices as "free"[]);
    if (where.category) q = q.where("category_id", "=", where.category);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const expectCard = (card: Card, row: Row, lang: Lang) => {
    expect(card.code).toBe(row.code);
    expect(card.type).toBe(row.contents_type);
    expect(card.title).toBe(lang === "ko" ? row.title_ko : row.title_en);
    expect(card.price).toBe(lang === "ko" ? row.price_krw : row.price_usd);
    expect(card.currency).toBe(lang === "ko" ? "KRW" : "USD");
  };
  const firstTerm = (kind: "category" | "genre" | "theme", space: string) =>
    db
      .selectFrom("taxonomy")
      .selectAll()
      .where("kind", "=", kind)
      .where("space", "=", space as "video")
      .orderBy("sort")
      .executeTakeFirstOrThrow();

  it("serves banners, key visuals and keywords of every page in the caller's language", async () => {
    // Only popular keywords are listed: a recommended one must not show up.
    await db
      .insertInto("keywords")
      .values({ page: "home", kind: "recommended", keyword_ko: "추천", keyword_en: "pick", sort: 0 })
      .execute();
    for (const page of PAGES) {
      const banners = await db.selectFrom("banners").selectAll().where("page", "=", page).orderBy("sort").execute();
      const words = await db
        .selectFrom("keywords")
        .selectAll()
        .where("page", "=", page)
        .where("kind", "=", "popular")
        .orderBy("sort")
        .execute();
      for (const kind of ["banner", "keyvisual"] as const) {
        const rows = banners.filter((b) => b.kind === kind);
        expect(rows.length).toBeGreaterThan(0);
        const ko = (await get(`${kind}s/${page}`, "ko")).data.list;
        const en = (await get(`${kind}s/${page}`, "en")).data.list;
        expect(ko.map((b: { id: number; kind: string }) => [b.id, b.kind])).toEqual(rows.map((r) => [r.id, kind]));
        expect(ko.map((b: { title: string }) => b.title)).toEqual(rows.map((r) => r.title_ko));
        expect(en.map((b: { subtitle: string; image: string }) => [b.subtitle, b.image])).toEqual(
          rows.map((r) => [r.subtitle_en, r.image_path]),
        );
        expect(ko[0].title).not.toBe(en[0].title);
      }
      expect(words.length).toBeGreaterThan(0);
      expect((await get(`keywords/${page}`, "ko")).data.list).toEqual(words.map((w) => w.keyword_ko));
      expect((await get(`keywords/${page}`, "en")).data.list).toEqual(words.map((w) => w.keyword_en));
    }
    for (const route of ["banners", "keyvisuals", "keywords"]) await expectFail(`${route}/nowhere`, 400, "id");
  });

  it("lists a space's items by popularity or release date, paged, with the active total", async () => {
    const videos = of((r) => r.contents_type === "video");
    const best = await get("contents?space=video&page=best&offset=0&limit=5", "ko");
    same(best.data.list, videos.slice(0, 5));
    for (const [i, c] of (best.data.list as Card[]).entries()) expectCard(c, videos[i], "ko");
    expect(best.data.total_count).toBe(await countActive({ type: "video" }));
    const next = await get("contents?space=video&offset=5&limit=5");
    same(next.data.list, videos.slice(5, 10));
    for (const [i, c] of (next.data.list as Card[]).entries()) expectCard(c, videos[5 + i], "en");
    same((await get("contents?space=video&offset=0&limit=100")).data.list, videos.slice(0, 100));
    const icons = of((r) => r.contents_type === "icon", recent);
    const fresh = await get("contents?space=icon&page=new&offset=3&limit=7");
    same(fresh.data.list, icons.slice(3, 10));
    expect(fresh.data.total_count).toBe(await countActive({ type: "icon" }));
    const tail = await get(`contents?space=video&offset=${videos.length - 2}&limit=10`);
    same(tail.data.list, videos.slice(-2));
  });

  it("lists only free and benefit items in the benefit space, across types", async () => {
    const freebies = of((r) => r.price_type !== "paid");
    const res = await get("contents?space=benefit&limit=100");
    same(res.data.list, freebies.slice(0, 100));
    expect(res.data.list.every((c: Card) => c.price_type !== "paid" && c.price === 0)).toBe(true);
    expect(new Set(res.data.list.map((c: Card) => c.type)).size).toBeGreaterThan(1);
    expect(res.data.total_count).toBe(await countActive({ prices: ["free", "benefit"] }));
    const newest = await get("contents?space=benefit&page=new&limit=10");
    same(newest.data.list, of((r) => r.price_type !== "paid", recent).slice(0, 10));
  });

  it("filters a space by a category, genre or theme group_id", async () => {
    const cat = await firstTerm("category", "video");
    const res = await get(`contents?space=video&group_id=${cat.id}&limit=100`);
    same(
      res.data.list,
      of((r) => r.contents_type === "video" && r.category_id === cat.id),
    );
    expect(res.data.total_count).toBe(await countActive({ type: "video", category: cat.id }));
    expect(res.data.total_count).toBeLessThan(await countActive({ type: "video" }));
    const genre = await firstTerm("genre", "audio");
    const byGenre = await get(`contents?space=audio&group_id=${genre.id}&page=new&limit=100`);
    same(
      byGenre.data.list,
      of((r) => r.contents_type === "audio" && r.genre_id === genre.id, recent),
    );
    const theme = await firstTerm("theme", "audio");
    const members = new Set(
      (await db.selectFrom("theme_items").select("content_id").where("theme_id", "=", theme.id).execute()).map((m) => m.content_id),
    );
    const byTheme = await get(`contents?space=audio&group_id=${theme.id}&limit=100`);
    same(
      byTheme.data.list,
      of((r) => r.contents_type === "audio" && members.has(r.id)),
    );
  });

  it("rejects bad list parameters with a 400 naming the parameter, and unknown groups with a 404", async () => {
    await expectFail("contents", 400, "space");
    await expectFail("contents?space=sticker", 400, "space");
    await expectFail("contents?space=video&page=old", 400, "page");
    for (const bad of ["limit=0", "limit=1000", "limit=abc", "limit=2.5"]) await expectFail(`contents?space=video&${bad}`, 400, "limit");
    await expectFail("contents?space=video&offset=-1", 400, "offset");
    await expectFail("contents?space=video&group_id=0", 400, "group_id");
    await expectFail("contents?space=video&group_id=999999", 404, "not found");
  });

  it("lists free contents for the free page and for a product type, filtered by free_type", async () => {
    const audio = await get("free/contents?from=free_page&contents_type=audio");
    const freeAudio = of((r) => r.contents_type === "audio" && r.price_type !== "paid");
    same(audio.data.list, freeAudio.slice(0, 12));
    expect(audio.data.total_count).toBe(await countActive({ type: "audio", prices: ["free", "benefit"] }));
    const top = await get("free/contents?from=free_page");
    same(top.data.list, of((r) => r.price_type !== "paid").slice(0, 12));
    for (const free_type of ["free", "benefit"] as const) {
      const rows = of((r) => r.contents_type === "video" && r.price_type === free_type);
      const res = await get(`free/contents?from=product&contents_type=video&free_type=${free_type}&offset=1&limit=3`, "ko");
      same(res.data.list, rows.slice(1, 4));
      expect(res.data.list.every((c: Card) => c.price_type === free_type)).toBe(true);
      expect(res.data.total_count).toBe(await countActive({ type: "video", prices: [free_type] }));
    }
    const all = await get("free/contents?from=product&contents_type=icon&limit=100");
    same(
      all.data.list,
      of((r) => r.contents_type === "icon" && r.price_type !== "paid"),
    );
    await expectFail("free/contents", 400, "from");
    await expectFail("free/contents?from=home", 400, "from");
    await expectFail("free/contents?from=product", 400, "contents_type");
    await expectFail("free/contents?from=product&contents_type=video&free_type=paid", 400, "free_type");
    await expectFail("free/contents?from=product&contents_type=video&limit=0", 400, "limit");
  });

  it("lists items related to one item: same type and group, itself excluded, by id or code", async () => {
    const video = of((r) => r.contents_type === "video")[0];
    const related = of((r) => r.contents_type === "video" && r.category_id === video.category_id && r.id !== video.id);
    const byId = await get(`contents/${video.id}/related?offset=0&limit=4`);
    same(byId.data.list, related.slice(0, 4));
    expect(byId.data.total_count).toBe(related.length);
    const byCode = await get(`contents/${video.code}/related?offset=2&limit=3`);
    same(byCode.data.list, related.slice(2, 5));
    expect((await get(`contents/${video.code}/related`)).data.list).toHaveLength(Math.min(8, related.length));
    const song = of((r) => r.contents_type === "audio" && r.genre_id !== null)[0];
    const songs = await get(`contents/${song.id}/related?limit=100`);
    same(
      songs.data.list,
      of((r) => r.contents_type === "audio" && r.genre_id === song.genre_id && r.id !== song.id),
    );
    expect(ids(songs.data.list)).not.toContain(song.id);
    await expectFail("contents/99999999/related", 404);
    await expectFail(`contents/${video.id}/related?limit=101`, 400, "limit");
  });

  it("answers one item's detail by id or code, checking contents_type", async () => {
    const icon = of((r) => r.contents_type === "icon")[3];
    const ko = await get(`contents/${icon.id}?contents_type=icon`, "ko");
    const en = await get(`contents/${icon.code}`, "en");
    expectCard(ko.data, icon, "ko");
    expectCard(en.data, icon, "en");
    expect(ko.data.id).toBe(icon.id);
    expect(en.data.id).toBe(icon.id);
    expect(ko.data.description).not.toBe(en.data.description);
    expect(en.data.category.id).toBe(icon.category_id);
    expect(en.data.bundle).toEqual([]);
    await expectFail(`contents/${icon.id}?contents_type=video`, 404);
    await expectFail(`contents/${icon.code}?contents_type=audio`, 404);
    const gone = await db.selectFrom("contents").select("code").where("status", "=", "discontinued").executeTakeFirstOrThrow();
    expect((await get(`contents/${gone.code}`)).data.discontinued).toBe(true);
    expect(ko.data.discontinued).toBe(false);
    await expectFail("contents/99999999", 404);
    await expectFail("contents/VI9999999", 404);
    await expectFail("contents/not-an-id", 400, "id");
    await expectFail(`contents/${icon.id}?contents_type=sticker`, 400, "contents_type");
    const pack = of((r) => r.contents_type === "package")[0];
    const detail = await get(`contents/${pack.code}?contents_type=package`);
    const members = await db.selectFrom("package_items").selectAll().where("package_id", "=", pack.id).orderBy("sort").execute();
    expect(ids(detail.data.bundle)).toEqual(members.map((m) => m.content_id));
    expect(new Set(detail.data.bundle.map((c: Card) => c.type))).toEqual(new Set(["video", "icon", "audio"]));
  });

  it("lists themes of a space with their first items, paged", async () => {
    const themes = await db
      .selectFrom("taxonomy")
      .selectAll()
      .where("kind", "=", "theme")
      .where("space", "=", "video")
      .orderBy("sort")
      .execute();
    expect(themes.length).toBeGreaterThan(1);
    const ko = await get("themes?space=video&offset=0&limit=10", "ko");
    expect(ko.data.total_count).toBe(themes.length);
    expect(ko.data.list.map((t: { id: number; name: string }) => [t.id, t.name])).toEqual(themes.map((t) => [t.id, t.name_ko]));
    for (const t of ko.data.list as { id: number; items: Card[] }[]) {
      const members = new Set(
        (await db.selectFrom("theme_items").select("content_id").where("theme_id", "=", t.id).execute()).map((m) => m.content_id),
      );
      same(t.items, of((r) => members.has(r.id)).slice(0, 8));
    }
    const second = await get("themes?space=video&offset=1&limit=1");
    expect(second.data.list.map((t: { name: string }) => t.name)).toEqual([themes[1].name_en]);
    expect(second.data.total_count).toBe(themes.length);
    await expectFail("themes", 400, "space");
    await expectFail("themes?space=video&limit=0", 400, "limit");
  });

  it("lists packages with how many items each bundles", async () => {
    const packs = of((r) => r.contents_type === "package");
    // One package loses an item, so the counts differ between packages and must come from package_items.
    const link = await db.selectFrom("package_items").select("content_id").where("package_id", "=", packs[2].id).executeTakeFirstOrThrow();
    await db.deleteFrom("package_items").where("package_id", "=", packs[2].id).where("content_id", "=", link.content_id).execute();
    const counts = await db
      .selectFrom("package_items")
      .select(["package_id", db.fn.countAll().as("n")])
      .groupBy("package_id")
      .execute();
    const byId = new Map(counts.map((c) => [c.package_id, Number(c.n)]));
    const res = await get("packages?offset=1&limit=4");
    same(res.data.list, packs.slice(1, 5));
    expect(res.data.total_count).toBe(await countActive({ type: "package" }));
    for (const p of res.data.list as { id: number; item_count: number }[]) {
      expect(p.item_count).toBe(byId.get(p.id));
      expect(p.item_count).toBeGreaterThan(0);
    }
    await expectFail("packages?offset=-1", 400, "offset");
  });

  it("lists fonts, filtered by a font category; a non-font category is a 404", async () => {
    const fonts = of((r) => r.contents_type === "font");
    const all = await get("font/list?offset=0&limit=100");
    same(all.data.list, fonts);
    expect(all.data.total_count).toBe(await countActive({ type: "font" }));
    const cate1 = fonts[0].category_id as number;
    const inCat = fonts.filter((f) => f.category_id === cate1);
    const res = await get(`font/list?cate1=${cate1}&offset=0&limit=2`);
    same(res.data.list, inCat.slice(0, 2));
    expect(res.data.total_count).toBe(await countActive({ type: "font", category: cate1 }));
    await expectFail(`font/list?cate1=${(await firstTerm("category", "video")).id}`, 404);
    await expectFail("font/list?cate1=999999", 404);
  });

  it("answers a font's detail only for fonts, contents_type defaulting to 4", async () => {
    const font = of((r) => r.contents_type === "font")[0];
    const byId = await get(`font/${font.id}`, "ko");
    expectCard(byId.data, font, "ko");
    expect(byId.data.contents_type).toBe(4);
    expect((await get(`font/${font.code}?contents_type=4`)).data.id).toBe(font.id);
    const video = of((r) => r.contents_type === "video")[0];
    await expectFail(`font/${video.id}`, 404);
    await expectFail(`font/${video.code}`, 404);
    await expectFail("font/99999999", 404);
  });

  it("serves a WOFF2 subset of a font for the preview text", async () => {
    const font = of((r) => r.contents_type === "font")[0];
    const subset = async (text: string) => {
      const res = await call(`/api/v1/font/subset?contents_code=${font.code}&text=${encodeURIComponent(text)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("font/woff2");
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.subarray(0, 4).toString("latin1")).toBe("wOF2");
      expect(res.headers.get("content-length")).toBe(String(body.length));
      return body;
    };
    const small = await subset("AB");
    const large = await subset("The quick brown fox jumps over the lazy dog");
    expect(large.equals(small)).toBe(false);
    expect(large.length).toBeGreaterThan(small.length);
    expect((await subset("AB")).equals(small)).toBe(true);
    await expectFail(`font/subset?contents_code=${font.code}&text=${"a".repeat(201)}`, 400, "text");
    await expectFail(`font/subset?contents_code=${font.code}&text=${"a".repeat(101)}`, 400, "text");
    await expectFail(`font/subset?contents_code=${of((r) => r.contents_type === "video")[0].code}&text=A`, 400, "contents_code");
    await expectFail("font/subset?contents_code=FO9999999&text=A", 404);
  });

  it("groups pass prices in six groups, ascending by count, in the caller's currency", async () => {
    const rows = await db.selectFrom("pass_prices").selectAll().execute();
    // Spec section 3: contents_flag 1 image, 2 video, 4 audio (by contents_type_sub), anything else font.
    const groupOf = (flag: number, sub: number | null) =>
      ({ 1: "image", 2: "video", 4: sub === 3001 ? "audio_se" : sub === 3003 ? "audio_ai" : "audio_bgm" })[flag] ?? "font";
    for (const lang of ["ko", "en"] as const) {
      const { data } = await get("passes", lang);
      expect(Object.keys(data.list)).toEqual(["video", "audio_se", "audio_bgm", "audio_ai", "image", "font"]);
      let seen = 0;
      for (const [group, list] of Object.entries(data.list) as [
        string,
        { id: number; contents_count: number; price: number; currency: string }[],
      ][]) {
        expect(list.length, group).toBeGreaterThan(0);
        const counts = list.map((p) => p.contents_count);
        expect(counts).toEqual([...counts].sort((a, b) => a - b));
        for (const p of list) {
          const row = rows.find((r) => r.id === p.id)!;
          expect(groupOf(row.contents_flag, row.contents_type_sub)).toBe(group);
          expect(p.price).toBe(lang === "ko" ? row.price_krw : row.price_usd);
          expect(p.currency).toBe(lang === "ko" ? "KRW" : "USD");
        }
        seen += list.length;
      }
      expect(seen).toBe(rows.length);
    }
  });

  it("answers one address per item and refuses groups and type codes that do not fit", async () => {
    const item = await db.selectFrom("contents").select("id").where("contents_type", "=", "video").executeTakeFirstOrThrow();
    for (const loose of [`0${item.id}`, `%20${item.id}`, "1e1"]) expect((await call(`/api/v1/contents/${loose}`)).status, loose).toBe(400);
    const pkgCategory = await db
      .selectFrom("taxonomy")
      .select("id")
      .where("kind", "=", "category")
      .where("space", "=", "package")
      .executeTakeFirstOrThrow();
    expect((await call(`/api/v1/contents?space=video&group_id=${pkgCategory.id}`)).status).toBe(404);
    const videoCategory = await db
      .selectFrom("taxonomy")
      .select("id")
      .where("kind", "=", "category")
      .where("space", "=", "video")
      .executeTakeFirstOrThrow();
    expect((await call(`/api/v1/packages?cate1=${videoCategory.id}`)).status).toBe(404);
    const font = await db.selectFrom("contents").select("id").where("contents_type", "=", "font").executeTakeFirstOrThrow();
    expect((await call(`/api/v1/font/${font.id}?contents_type=2`)).status).toBe(400);
    const freePage = await get("free/contents?from=free_page");
    expect(freePage.data.total_count).toBe(freePage.data.list.length);
  });
});
