import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const en = { "accept-language": "en", cookie: "lng=en" };

describe(`operator console: the catalog on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let dataDir: string;
  let cookie: string;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    // A data folder of this file's own: uploads and previews land here.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "admin-catalog-"));
    call = await createTestApp(db, { dataDir });
    cookie = `${await signInOperator(call, "catalog", "198.51.100.131")}; lng=en`;
  });
  afterAll(async () => {
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const page = async (p: string, c = cookie) => {
    const res = await call(p, { headers: { ...en, cookie: c }, ip: "198.51.100.131" });
    return { status: res.status, html: (await res.text()).replaceAll("<!-- -->", "") };
  };
  const store = async (p: string) => (await (await call(p, { headers: { "accept-language": "en" } })).text()).replaceAll("<!-- -->", "");
  const post = (p: string, fields: Record<string, string>) => adminPost(call, cookie, p, fields, "198.51.100.131");
  const auditOf = (action: string, targetId: number) =>
    db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", action)
      .where("target_id", "=", String(targetId))
      .orderBy("id", "desc")
      .executeTakeFirst();
  const formOf = async (id: number) => {
    const row = await db.selectFrom("contents").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const s = (v: number | null) => (v === null ? "" : String(v));
    return {
      intent: "update",
      titleKo: row.title_ko,
      titleEn: row.title_en,
      descriptionKo: row.description_ko,
      descriptionEn: row.description_en,
      tagsKo: row.tags_ko,
      tagsEn: row.tags_en,
      priceType: row.price_type,
      priceKrw: String(row.price_krw),
      priceUsd: String(row.price_usd),
      categoryId: s(row.category_id),
      genreId: s(row.genre_id),
      moodId: s(row.mood_id),
      bpm: s(row.bpm),
      audioSub: s(row.contents_type_sub),
    };
  };

  it("lists the catalog with filters by type, status and keyword, paged; other roles get 403", async () => {
    const all = await page("/admin/catalog");
    expect(all.status).toBe(200);
    expect(all.html).toContain("Catalog items, newest first");
    const audio = await db
      .selectFrom("contents")
      .select(["id", "code", "title_en"])
      .where("contents_type", "=", "audio")
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const byCode = await page(`/admin/catalog?keyword=${audio.code.toLowerCase()}`);
    expect(byCode.html).toContain(`href="/admin/catalog/${audio.id}"`);
    expect(byCode.html).toContain("Items: 1");
    const audioOnly = await page("/admin/catalog?type=audio&status=active");
    const n = await db
      .selectFrom("contents")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("contents_type", "=", "audio")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    expect(audioOnly.html).toContain(`Items: ${Number(n.n)}`);
    expect(audioOnly.html).not.toContain("<td>Video</td>");
    expect(audioOnly.html).toContain("<td>Audio</td>");
    // Hostile or wrong filters fall back, never a 500.
    expect((await page("/admin/catalog?type=<script>&status=x&page=-3")).status).toBe(200);
    const second = await page("/admin/catalog?page=2");
    expect(second.html).toContain("Page 2 of");
    const support = await signInOperator(call, "support", "198.51.100.132");
    expect((await call("/admin/catalog", { headers: { cookie: support }, ip: "198.51.100.132" })).status).toBe(403);
    expect((await page("/admin/catalog/999999999")).status).toBe(404);
  });

  it("edits an audio item's titles, prices, taxonomy, BPM and tags; search and the store follow; audit before/after", async () => {
    const item = await db
      .selectFrom("contents")
      .select(["id", "code", "title_en"])
      .where("contents_type", "=", "audio")
      .where("contents_type_sub", "=", 3002)
      .where("status", "=", "active")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const genre = await db.selectFrom("taxonomy").select("id").where("kind", "=", "genre").orderBy("id", "desc").executeTakeFirstOrThrow();
    const form = await formOf(item.id);
    const res = await post(`/admin/catalog/${item.id}`, {
      ...form,
      titleEn: "Zanzibar moonlight groove",
      titleKo: "잔지바르 달빛 그루브",
      priceType: "paid",
      priceKrw: "12000",
      priceUsd: "899",
      genreId: String(genre.id),
      bpm: "128",
      tagsEn: "groove, moonlight ,groove,,night",
    });
    expect(res.status).toBe(200);
    expect((await res.text()).replaceAll("<!-- -->", "")).toContain("The item was saved.");
    const row = await db.selectFrom("contents").selectAll().where("id", "=", item.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title_en: "Zanzibar moonlight groove", price_krw: 12000, price_usd: 899, genre_id: genre.id, bpm: 128 });
    expect(row.tags_en).toBe("groove,moonlight,night");
    const audit = await auditOf("content.update", item.id);
    expect(JSON.parse(audit?.before_json ?? "{}").title_en).toBe(item.title_en);
    expect(JSON.parse(audit?.after_json ?? "{}").title_en).toBe("Zanzibar moonlight groove");
    expect(audit?.operator_email).toBe("catalog@example.com");
    // Search finds it by its new title (the index was rewritten in the same transaction), and not by the old one.
    const found = await store("/search/all?keywords=zanzibar");
    expect(found).toContain("Zanzibar moonlight groove");
    expect(found).toContain(item.code);
    // The store's item page shows the new title.
    expect(await store(`/contents/audio?code=${item.code}`)).toContain("Zanzibar moonlight groove");
  });

  it("refuses bad input with the typed values kept and a message, and writes nothing", async () => {
    const item = await db
      .selectFrom("contents")
      .select(["id", "title_en"])
      .where("contents_type", "=", "video")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const form = await formOf(item.id);
    const before = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const cases: [Record<string, string>, string][] = [
      [{ titleEn: "  " }, "Enter both titles"],
      [{ priceType: "paid", priceKrw: "0", priceUsd: "100" }, "Check the price"],
      [{ priceType: "free", priceKrw: "1000", priceUsd: "0" }, "Check the price"],
      [{ priceKrw: "-5" }, "Check the price"],
      [{ bpm: "120" }, "BPM is for audio items only"],
      [{ genreId: "1" }, "A genre is for audio items only"],
      [{ categoryId: "999999" }, "Choose a category of this item"],
      [{ priceType: "<script>" }, "Check the price"],
    ];
    for (const [change, message] of cases) {
      const res = await post(`/admin/catalog/${item.id}`, { ...form, titleKo: "입력 보존 확인", ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      const html = (await res.text()).replaceAll("<!-- -->", "");
      expect(html).toContain(message);
      expect(html).toContain('value="입력 보존 확인"');
    }
    // A category of another type is refused too.
    const iconCategory = await db
      .selectFrom("taxonomy")
      .select("id")
      .where("kind", "=", "category")
      .where("space", "=", "icon")
      .executeTakeFirstOrThrow();
    expect((await post(`/admin/catalog/${item.id}`, { ...form, categoryId: String(iconCategory.id) })).status).toBe(400);
    expect((await post(`/admin/catalog/${item.id}`, { intent: "nonsense" })).status).toBe(400);
    expect((await post("/admin/catalog/999999999", form)).status).toBe(404);
    const after = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await db.selectFrom("contents").select("title_en").where("id", "=", item.id).executeTakeFirstOrThrow()).title_en).toBe(
      item.title_en,
    );
  });

  it("discontinues an item (the store's page says so, it leaves search) and restores it, each in the audit log", async () => {
    const item = await db
      .selectFrom("contents")
      .select(["id", "code", "contents_type", "title_en"])
      .where("contents_type", "=", "icon")
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const form = await formOf(item.id);
    await post(`/admin/catalog/${item.id}`, { ...form, titleEn: "Quokka gradient badge" });
    expect(await store("/search/all?keywords=quokka")).toContain(item.code);
    const before = await store(`/contents/icon?code=${item.code}`);
    expect(before).not.toContain("This content has been discontinued");
    const res = await post(`/admin/catalog/${item.id}`, { intent: "discontinue", reason: "Rights expired" });
    expect(res.status).toBe(200);
    expect((await res.text()).replaceAll("<!-- -->", "")).toContain("The item was discontinued.");
    expect((await db.selectFrom("contents").select("status").where("id", "=", item.id).executeTakeFirstOrThrow()).status).toBe(
      "discontinued",
    );
    const gone = await store(`/contents/icon?code=${item.code}`);
    expect(gone).toContain("This content has been discontinued");
    expect(gone).not.toContain("Add to cart");
    expect(await store("/search/all?keywords=quokka")).not.toContain(item.code);
    const audit = await auditOf("content.discontinue", item.id);
    expect(audit).toMatchObject({ reason: "Rights expired", before_json: '{"status":"active"}', after_json: '{"status":"discontinued"}' });
    // The console's list shows it under "discontinued".
    expect((await page(`/admin/catalog?status=discontinued&keyword=${item.code}`)).html).toContain(item.code);
    // Again: nothing changes, no second line.
    await post(`/admin/catalog/${item.id}`, { intent: "discontinue" });
    const lines = await db
      .selectFrom("audit_log")
      .select("id")
      .where("action", "=", "content.discontinue")
      .where("target_id", "=", String(item.id))
      .execute();
    expect(lines).toHaveLength(1);
    const restored = await post(`/admin/catalog/${item.id}`, { intent: "restore", reason: "" });
    expect((await restored.text()).replaceAll("<!-- -->", "")).toContain("The item is on sale again.");
    expect(await store(`/contents/icon?code=${item.code}`)).not.toContain("This content has been discontinued");
    expect(await store("/search/all?keywords=quokka")).toContain(item.code);
    expect(await auditOf("content.restore", item.id)).toBeTruthy();
    expect((await post(`/admin/catalog/${item.id}`, { intent: "discontinue", reason: "x".repeat(600) })).status).toBe(400);
  });
});
