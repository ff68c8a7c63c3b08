import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const clean = (s: string) => s.replaceAll("<!-- -->", "");

/** Keywords, like every publishing form, are previewed before they go live: the page's chips with the draft, nothing saved. */
describe(`console keywords preview on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let cookie: string;

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop } = t);
    call = await createTestApp(db, { dataDir: t.dataDir });
    cookie = await signInOperator(call, "catalog", "198.51.100.160");
  });
  afterAll(async () => drop());

  const counts = async () => ({
    keywords: Number(
      (
        await db
          .selectFrom("keywords")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    audit: Number(
      (
        await db
          .selectFrom("audit_log")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });
  const preview = (html: string, lang: "ko" | "en") =>
    clean(html.match(new RegExp(`<section aria-labelledby="preview-keywords-${lang}"[\\s\\S]*?</section>`))?.[0] ?? "");

  it("previews a new keyword after the page's shown ones, in both languages, and saves nothing", async () => {
    const before = await counts();
    const shown = await db
      .selectFrom("keywords")
      .select(["keyword_en", "keyword_ko"])
      .where("page", "=", "home")
      .where("kind", "=", "popular")
      .where("visible", "=", 1)
      .orderBy("sort")
      .orderBy("id")
      .execute();
    const res = await adminPost(call, cookie, "/admin/publishing/keywords?page=home", {
      intent: "preview",
      page: "home",
      keyword_ko: "겨울 풍경",
      keyword_en: "winter scenery",
      visible: "1",
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    const en = preview(html, "en");
    const ko = preview(html, "ko");
    for (const k of shown) expect(en).toContain(`>${k.keyword_en}</a>`);
    expect(en).toContain('href="/search/all?keywords=winter%20scenery">winter scenery</a>');
    expect(ko).toContain(">겨울 풍경</a>");
    // The new keyword comes last.
    expect(en.indexOf("winter scenery")).toBeGreaterThan(en.lastIndexOf("<li>"));
    // The form keeps what was typed; nothing was written.
    expect(html).toContain('value="winter scenery"');
    expect(await counts()).toEqual(before);
  });

  it("previews a changed row in its place, and refuses a bad draft with 400 and nothing saved", async () => {
    const row = await db
      .selectFrom("keywords")
      .select(["id", "keyword_en"])
      .where("page", "=", "home")
      .where("kind", "=", "popular")
      .where("visible", "=", 1)
      .orderBy("sort")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const before = await counts();
    const res = await adminPost(call, cookie, "/admin/publishing/keywords?page=home", {
      intent: "preview",
      id: String(row.id),
      page: "home",
      keyword_ko: "바뀐 검색어",
      keyword_en: "changed word",
      visible: "1",
    });
    expect(res.status).toBe(200);
    const en = preview(await res.text(), "en");
    expect(en).toContain(">changed word</a>");
    expect(en).not.toContain(`>${row.keyword_en}</a>`);
    expect(en.indexOf("changed word")).toBeLessThan(en.indexOf("</ul>"));
    const bad = await adminPost(call, cookie, "/admin/publishing/keywords?page=home", {
      intent: "preview",
      page: "home",
      keyword_ko: "",
      keyword_en: "x".repeat(41),
    });
    expect(bad.status).toBe(400);
    expect(await counts()).toEqual(before);
    const kept = await db.selectFrom("keywords").select("keyword_en").where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(kept.keyword_en).toBe(row.keyword_en);
  });
});
