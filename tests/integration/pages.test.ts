import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

type Fetch = Awaited<ReturnType<typeof createTestApp>>;

describe(`storefront pages on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let get: Fetch;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    get = await createTestApp(db, { dataDir: t.dataDir });
  });
  afterAll(() => drop());

  const html = async (path: string, init?: RequestInit) => {
    const res = await get(path, init);
    return { res, body: await res.text() };
  };

  it("redirects unknown paths to /404, which says the URL is invalid and links home", async () => {
    for (const path of ["/nope", "/deeply/nested/nope", "/videos"]) {
      const res = await get(path);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/404");
    }
    const { res, body } = await html("/404", { headers: { "accept-language": "en" } });
    expect(res.status).toBe(404);
    expect(body).toContain("It is an invalid URL.");
    expect(body).toMatch(/<a[^>]+href="\/"[^>]*>Go to home<\/a>/);
  });

  it("applies the language query, remembers it in a cookie and removes it from the address", async () => {
    const res = await get("/video?language=ko&x=1");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/video?x=1");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^lng=/);
    const { body } = await html("/video?x=1", { headers: { cookie: cookie.split(";")[0], "accept-language": "en" } });
    expect(body).toContain('<html lang="ko"');
  });

  it("carries the page language's strings, and only those, for the browser", async () => {
    type Strings = { lng: string; ns: { common: { brand: string } } };
    const ko = await get("/audio", { headers: { "accept-language": "ko" } });
    expect(((await ko.stringTable()) as Strings | null)?.ns.common.brand).toBe("비디오에셋 마켓");
    const en = await get("/audio", { headers: { "accept-language": "en" } });
    const table = (await en.stringTable()) as Strings | null;
    expect(table?.lng).toBe("en");
    expect(table?.ns.common.brand).toBe("VideoAsset Market");
    expect(JSON.stringify(table)).not.toContain("비디오에셋 마켓");
  });

  it("ignores an unsupported language value but still removes it", async () => {
    const res = await get("/?language=fr");
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("chooses the language from the CDN country header, then Accept-Language, then English", async () => {
    expect((await html("/", { headers: { "cf-ipcountry": "KR" } })).body).toContain('<html lang="ko"');
    expect((await html("/", { headers: { "cloudfront-viewer-country": "KR", "accept-language": "en" } })).body).toContain(
      '<html lang="ko"',
    );
    expect((await html("/", { headers: { "cf-ipcountry": "US", "accept-language": "ko" } })).body).toContain('<html lang="en"');
    expect((await html("/", { headers: { "accept-language": "ko-KR,ko;q=0.9" } })).body).toContain('<html lang="ko"');
    expect((await html("/", { headers: { "accept-language": "fr-FR" } })).body).toContain('<html lang="en"');
  });

  it("renders the store chrome: six categories, search, cart count, sign-in, language switch and the footer", async () => {
    const { body } = await html("/", { headers: { "accept-language": "en" } });
    for (const href of ["/video", "/icon", "/audio", "/package", "/benefit", "/font"]) expect(body).toContain(`href="${href}"`);
    expect(body).toContain('action="/search/all"');
    expect(body).toMatch(/data-testid="cart-count">0</);
    expect(body).toContain("Sign in");
    expect(body).toContain("language=ko");
    for (const type of ["terms", "privacy", "paid"]) expect(body).toContain(`href="/policy?type=${type}"`);
    expect(body).toContain("Business registration number");
    expect(body).toContain("Test mode");
  });

  it("sets title, description, keywords, canonical url and Open Graph per category", async () => {
    const { body } = await html("/audio?utm=x", { headers: { "accept-language": "en" } });
    expect(body).toContain("<title>Audio | VideoAsset Market</title>");
    expect(body).toContain('name="description" content="Background music, AI background music and sound effects."');
    expect(body).toMatch(/name="keywords" content="[^"]+"/);
    expect(body).toContain('rel="canonical" href="http://store.test/audio"');
    expect(body).toContain('property="og:title" content="Audio | VideoAsset Market"');
    const ko = await html("/icon", { headers: { "accept-language": "ko" } });
    expect(ko.body).toContain("<title>아이콘 | 비디오에셋 마켓</title>");
  });

  it("shows best sellers from the database on a category landing", async () => {
    const top = await db
      .selectFrom("contents")
      .select(["title_en", "code"])
      .where("contents_type", "=", "video")
      .where("status", "=", "active")
      .orderBy("popularity", "desc")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const { body } = await html("/video", { headers: { "accept-language": "en" } });
    expect(body).toContain(top.title_en);
    expect(body).toContain(`/contents/video?code=${top.code}`);
  });

  it("shows free and benefit items only on /benefit", async () => {
    const paid = await db.selectFrom("contents").select("code").where("price_type", "=", "paid").execute();
    const { body } = await html("/benefit", { headers: { "accept-language": "en" } });
    const codes = [...body.matchAll(/code=([A-Z]{2}\d{7})/g)].map((m) => m[1]);
    expect(codes.length).toBeGreaterThan(0);
    const paidCodes = new Set(paid.map((p) => p.code));
    expect(codes.filter((c) => paidCodes.has(c))).toEqual([]);
  });

  it("serves the three policies in both languages and 404s an unknown type", async () => {
    const privacy = await html("/policy?type=privacy", { headers: { "accept-language": "en" } });
    expect(privacy.body).toContain("Privacy Policy");
    expect(privacy.body).toContain("Privacy officer");
    const paid = await html("/policy?type=paid", { headers: { "accept-language": "ko" } });
    expect(paid.body).toContain("가상계좌 입금 기한");
    expect((await get("/policy?type=nope")).headers.get("location")).toBe("/404");
  });

  it("serves /servicecheck (503 with the window), /errorservice and /loading without site chrome", async () => {
    const check = await html("/servicecheck", { headers: { "accept-language": "en" } });
    expect(check.res.status).toBe(503);
    expect(check.body).toContain("We are inspecting the service");
    expect(check.body).toContain("2021");
    expect(check.body).not.toContain('class="site-header"');
    const err = await html("/errorservice", { headers: { "accept-language": "en" } });
    expect(err.body).toContain("Please try again in a few minutes");
    const loading = await html("/loading?to=/video", { headers: { "accept-language": "en" } });
    expect(loading.body).toContain('href="/video"');
    const offsite = await html("/loading?to=//evil.example", { headers: { "accept-language": "en" } });
    expect(offsite.body).not.toContain("evil.example");
  });

  it("answers /mypage/sw without licence headers by asking to open it from the editor", async () => {
    const res = await get("/mypage/sw/home", { headers: { "accept-language": "en" } });
    expect(res.status).toBe(401);
    const body = await res.text();
    expect(body).toContain("Open this page from the video editor");
    expect(body).not.toContain('class="site-header"');
  });

  it("verifies the editor's licence headers, keeps them in a cookie scoped to /mypage/sw", async () => {
    const L = DEMO.licenses.individual;
    const res = await get("/mypage/sw/home", { headers: { "accept-language": "en", license_id: L.serial, hw_info: L.hw_info } });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain(L.serial);
    expect(body).toContain("Registered");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toContain("Path=/mypage/sw");
    expect(cookie).toContain("HttpOnly");
    const again = await get("/mypage/sw/home", { headers: { "accept-language": "en", cookie: cookie.split(";")[0] } });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain(L.serial);
  });

  it("refuses a licence whose hardware does not match", async () => {
    const res = await get("/mypage/sw/home", {
      headers: { "accept-language": "en", license_id: DEMO.licenses.b2bg.serial, hw_info: "HW-OTHER" },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("No license key with this information found. Please check again.");
  });
});
