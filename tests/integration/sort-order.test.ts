import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { moveInScope, nextSort, setScopeOrder } from "../../app/market/sort-order.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

/** The shared reorder helper on a scope of its own (keywords of a page no storefront reads). */
describe(`sort order helper on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let scopeNo = 0;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
  });
  afterAll(async () => drop());

  /** A fresh scope with rows at the given sort values (gaps and ties allowed); answers the scope and the ids. */
  async function scope(sorts: number[]) {
    const page = `test-scope-${++scopeNo}`;
    const ids: number[] = [];
    for (const [i, sort] of sorts.entries()) {
      const row = await db
        .insertInto("keywords")
        .values({ page, kind: "popular", keyword_ko: `k${i}`, keyword_en: `k${i}`, sort, visible: 1 })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return { where: { page, kind: "popular" }, ids };
  }
  const order = async (page: string) =>
    (await db.selectFrom("keywords").select(["id", "sort"]).where("page", "=", page).orderBy("sort").orderBy("id").execute()).map((r) => [
      r.id,
      r.sort,
    ]);
  const move = (where: { page: string; kind: string }, id: number, direction: "up" | "down") =>
    db.transaction().execute((trx) => moveInScope(trx, "keywords", where, id, direction));

  it("appends after the last row of the scope, 0 in an empty one", async () => {
    const { where } = await scope([0, 7, 3]);
    expect(await db.transaction().execute((trx) => nextSort(trx, "keywords", where))).toBe(8);
    expect(await db.transaction().execute((trx) => nextSort(trx, "keywords", { page: "no-such-page", kind: "popular" }))).toBe(0);
  });

  it("moves a row up or down and renumbers the scope 0..n-1", async () => {
    const { where, ids } = await scope([0, 1, 2, 3]);
    const [a, b, c, d] = ids as [number, number, number, number];
    expect(await move(where, c, "up")).toEqual({ before: [a, b, c, d], after: [a, c, b, d] });
    expect(await order(where.page)).toEqual([
      [a, 0],
      [c, 1],
      [b, 2],
      [d, 3],
    ]);
    await move(where, a, "down");
    expect((await order(where.page)).map(([id]) => id)).toEqual([c, a, b, d]);
  });

  it("leaves the first row's move up and the last row's move down as they were", async () => {
    const { where, ids } = await scope([0, 1, 2]);
    const [a, , c] = ids as [number, number, number];
    expect((await move(where, a, "up")).after).toEqual(ids);
    expect((await move(where, c, "down")).after).toEqual(ids);
    expect((await order(where.page)).map(([id]) => id)).toEqual(ids);
  });

  it("closes gaps and settles ties by id before moving", async () => {
    // Sorts 10, 5, 5, 40: the order is b, c (a tie, by id), a, d.
    const { where, ids } = await scope([10, 5, 5, 40]);
    const [a, b, c, d] = ids as [number, number, number, number];
    expect(await move(where, d, "up")).toEqual({ before: [b, c, a, d], after: [b, c, d, a] });
    expect(await order(where.page)).toEqual([
      [b, 0],
      [c, 1],
      [d, 2],
      [a, 3],
    ]);
  });

  it("touches no other scope and ignores an id from another scope", async () => {
    const one = await scope([0, 1]);
    const two = await scope([0, 1]);
    await move(one.where, one.ids[1] as number, "up");
    expect((await order(two.where.page)).map(([id]) => id)).toEqual(two.ids);
    expect((await move(one.where, two.ids[1] as number, "up")).after).toEqual([one.ids[1], one.ids[0]]);
    expect((await order(two.where.page)).map(([id]) => id)).toEqual(two.ids);
  });

  it("applies two moves made at the same time one after the other (a double click moves twice, never loses one)", async () => {
    for (let round = 0; round < 5; round++) {
      const { where, ids } = await scope([0, 1, 2, 3]);
      const [a, b, c, d] = ids as [number, number, number, number];
      await Promise.all([move(where, a, "down"), move(where, a, "down")]);
      expect((await order(where.page)).map(([id, sort]) => [id, sort])).toEqual([
        [b, 0],
        [c, 1],
        [a, 2],
        [d, 3],
      ]);
    }
  });

  it("saves a whole order only when it names each row of the scope once", async () => {
    const { where, ids } = await scope([0, 1, 2]);
    const [a, b, c] = ids as [number, number, number];
    const save = (list: number[]) => db.transaction().execute((trx) => setScopeOrder(trx, "keywords", where, list));
    expect(await save([a, b])).toBe(false);
    expect(await save([a, a, b, c])).toBe(false);
    expect(await save([a, b, c, 999_999])).toBe(false);
    expect((await order(where.page)).map(([id]) => id)).toEqual(ids);
    expect(await save([c, a, b])).toBe(true);
    expect(await order(where.page)).toEqual([
      [c, 0],
      [a, 1],
      [b, 2],
    ]);
  });
});
