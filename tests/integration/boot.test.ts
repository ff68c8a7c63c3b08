import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { isPostgres } from "../../app/db/dialect";
import { searchFilterSchema } from "../../app/market/search/filter-schema.server";
import { ensureSearchIndex } from "../../app/market/search/indexer.server";
import { searchContents } from "../../app/market/search/search.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

describe(`start-up on an older database on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await createTestDb());
  });
  afterAll(() => drop());

  it("builds a missing search index from the catalog, and leaves a present one alone", async () => {
    // As if the catalog had been seeded before the search migration existed.
    await sql`DELETE FROM ${isPostgres(db) ? sql`search_documents` : sql`search_fts`}`.execute(db);
    const piano = searchFilterSchema.parse({ keywords: "piano" });
    expect((await searchContents(db, piano, "en")).total_count).toBe(0);
    const built = await ensureSearchIndex(db);
    const items = await db.selectFrom("contents").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
    expect(built).toBe(Number(items.n));
    expect((await searchContents(db, piano, "en")).total_count).toBeGreaterThan(0);
    expect(await ensureSearchIndex(db)).toBe(0);
  });
});
