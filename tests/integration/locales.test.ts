import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { PageStrings } from "../../app/i18n/react";
import { resources } from "../../app/i18n/resources";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;

/** The strings a page carries (issue 27.3): its namespaces only; the others come from /locales, cached for a year. */
describe(`translations per page on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
  }, 60_000);
  afterAll(async () => drop());

  /** The page's strings (the test app leaves them out of text(), tests/support/app.ts). */
  const stringsOf = async (res: Awaited<ReturnType<Call>>) => {
    const table = await res.stringTable();
    if (!table) throw new Error("no i18n-strings script");
    return table as PageStrings;
  };

  it("a detail page carries its own namespaces, never the console's or the checkout's, and weighs at most 30 kB", async () => {
    const item = await db
      .selectFrom("contents")
      .select("code")
      .where("contents_type", "=", "video")
      .where("status", "=", "active")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    for (const lng of ["en", "ko"] as const) {
      const res = await call(`/contents/video?code=${item.code}`, { headers: { "accept-language": lng } });
      expect(res.status).toBe(200);
      const html = await res.clone().arrayBuffer();
      expect(html.byteLength, lng).toBeLessThanOrEqual(30 * 1024);
      const strings = await stringsOf(res);
      expect(strings.lng).toBe(lng);
      expect(Object.keys(strings.ns)).toContain("common");
      expect(Object.keys(strings.ns)).toContain("item");
      for (const never of ["admin", "pay", "orders", "apiError", "mail"]) expect(Object.keys(strings.ns), never).not.toContain(never);
    }
  });

  it("the console's pages carry the admin namespace", async () => {
    const cookie = await signInOperator(call, "admin", "198.51.100.190");
    const res = await call("/admin", { headers: { cookie: `${cookie}; lng=en` } });
    expect(res.status).toBe(200);
    expect(Object.keys((await stringsOf(res)).ns)).toContain("admin");
  });

  it("serves a namespace at the page's version with a year's cache, at another version revalidated, and 404 otherwise", async () => {
    const page = await call("/", { headers: { "accept-language": "ko" } });
    const { v } = await stringsOf(page);
    const current = await call(`/locales/ko/cart?v=${v}`);
    expect(current.status).toBe(200);
    expect(current.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(current.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await current.json()).toEqual((resources.ko as Record<string, unknown>).cart);
    const old = await call("/locales/ko/cart?v=old");
    expect(old.status).toBe(200);
    expect(old.headers.get("cache-control")).toBe("no-cache");
    for (const path of ["/locales/fr/cart", "/locales/en/nothing", "/locales/en/__proto__", "/locales/en/toString"])
      expect((await call(path)).status, path).toBe(404);
  });
});
