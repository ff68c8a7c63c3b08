import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { CONTENT_VERSION_TTL_MS, contentVersion, readContentVersion } from "../../app/market/content-version.server";
import { singleUsePrices } from "../../app/market/passes.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`the published content's version on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await createTestDb());
  });
  afterAll(() => drop());

  it("moves with every change of the catalog and of each published table, in the change's transaction", async () => {
    const tables = await db.introspection.getTables();
    // What a store page shows (app/db/migrations/0027_content_version.ts): the catalog and what the console publishes.
    const published = [
      "contents",
      "taxonomy",
      "package_items",
      "theme_items",
      "banners",
      "keywords",
      "pass_prices",
      "faqs",
      "notices",
      "events",
      "policies",
      "guide_steps",
    ];
    for (const table of published) {
      const meta = tables.find((t) => t.name === table);
      expect(meta, table).toBeDefined();
      const column = meta?.columns.find((c) => c.name !== "id")?.name as string;
      const count = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
      expect(Number(count.rows[0].n), `${table} has rows in the demo seed`).toBeGreaterThan(0);
      const before = Number(await readContentVersion(db));
      // A rolled-back change bumps nothing.
      await db
        .transaction()
        .execute(async (trx) => {
          await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${sql.ref(column)}`.execute(trx);
          throw new Error("rollback");
        })
        .catch(() => {});
      expect(Number(await readContentVersion(db)), `${table} rolled back`).toBe(before);
      await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${sql.ref(column)}`.execute(db);
      expect(Number(await readContentVersion(db)), `${table} updated`).toBeGreaterThan(before);
    }
    const before = Number(await readContentVersion(db));
    await db
      .insertInto("keywords")
      .values({ page: "home", kind: "popular", keyword_ko: "버전", keyword_en: "version", sort: 99 })
      .execute();
    const inserted = Number(await readContentVersion(db));
    expect(inserted).toBeGreaterThan(before);
    await db.deleteFrom("keywords").where("keyword_en", "=", "version").execute();
    expect(Number(await readContentVersion(db))).toBeGreaterThan(inserted);
  });

  it("stays put when only an item's sales count changes (one update per paid order)", async () => {
    const before = await readContentVersion(db);
    await db
      .updateTable("contents")
      .set((eb) => ({ sales_count: eb("sales_count", "+", 1) }))
      .where("id", "in", db.selectFrom("contents").select("id").limit(3))
      .execute();
    expect(await readContentVersion(db)).toBe(before);
  });

  it("is read at most once a second per process, and the pass page's price ranges follow it", async () => {
    const seen = await contentVersion(db);
    const paid = await db
      .selectFrom("contents")
      .select(["id", "contents_type", "price_krw"])
      .where("status", "=", "active")
      .where("price_type", "=", "paid")
      .where("contents_type", "=", "video")
      .orderBy("price_krw", "desc")
      .executeTakeFirstOrThrow();
    const maxBefore = (await singleUsePrices(db, "ko")).find((p) => p.type === "video")?.max;
    expect(maxBefore).toBe(paid.price_krw);
    await db
      .updateTable("contents")
      .set({ price_krw: paid.price_krw + 1000 })
      .where("id", "=", paid.id)
      .execute();
    // Within the second the process keeps what it read; after it, the new version and the new range.
    expect(await contentVersion(db)).toBe(seen);
    await sleep(CONTENT_VERSION_TTL_MS + 50);
    expect(await contentVersion(db)).not.toBe(seen);
    expect((await singleUsePrices(db, "ko")).find((p) => p.type === "video")?.max).toBe(paid.price_krw + 1000);
  });
});
