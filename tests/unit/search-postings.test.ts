import fc from "fast-check";
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";
import { describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { Clause } from "../../app/market/search/analyze";
import { bitsOf, hasBit, idsOf, itemKeys, keyOf, matchByPostings, postingKeys } from "../../app/market/search/postings.server";

/** A PostgreSQL-shaped database whose only table is search_postings, held in memory. */
function postingsDb(stored: Map<string, Uint8Array>): DB {
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: { sql: string; parameters: readonly unknown[] }): Promise<QueryResult<R>> {
      const keys = query.parameters[0] as string[];
      const found = keys.filter((k) => stored.has(k));
      // The bits as PostgreSQL's encode(bits, 'base64') gives them: lines of 76 characters.
      if (query.sql.includes("encode(bits, 'base64')"))
        return {
          rows: found.map((key) => ({
            key,
            b64: (
              Buffer.from(stored.get(key) as Uint8Array)
                .toString("base64")
                .match(/.{1,76}/g) ?? []
            ).join("\n"),
          })) as R[],
        };
      return { rows: found.map((key) => ({ key, bits: stored.get(key) })) as R[] };
    },
    streamQuery: () => {
      throw new Error("not streamed");
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  return new Kysely<never>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }) as unknown as DB;
}

describe("stored bitsets of frequent keys", () => {
  it("key a document's tokens by themselves and by their prefixes of three characters or more", () => {
    expect([...postingKeys(["piano", "피아", "ab", "ㅍㅇ"])].sort()).toEqual(
      ["ab", "pia*", "pian*", "piano", "piano*", "ㅍㅇ", "피아"].sort(),
    );
    // Characters, not UTF-16 units.
    expect([...postingKeys(["a😀bc"])].sort()).toEqual(["a😀b*", "a😀bc", "a😀bc*"].sort());
  });

  it("look a query token up by the same keys, in each field", () => {
    expect(keyOf({ text: "pian", prefix: true })).toBe("pian*");
    expect(keyOf({ text: "piano", prefix: false })).toBe("piano");
    expect(keyOf({ text: "pian", prefix: true }, "title")).toBe("t:pian*");
    expect(keyOf({ text: "piano", prefix: false }, "tags")).toBe("g:piano");
    for (const field of ["document", "title", "tags"] as const)
      for (const token of ["piano", "피아노곡"])
        for (const n of [3, 4])
          expect(postingKeys([token], field).has(keyOf({ text: [...token].slice(0, n).join(""), prefix: true }, field))).toBe(true);
  });

  it("key an item by its whole text, its title and its tags apart", () => {
    const keys = itemKeys({ document: ["calm", "piano", "jazz"], title: ["calm"], tags: ["piano"] });
    for (const key of ["calm", "piano", "jazz", "t:calm", "t:cal*", "g:piano", "g:pia*"]) expect(keys.has(key), key).toBe(true);
    for (const key of ["t:piano", "g:calm", "t:jazz", "g:jazz"]) expect(keys.has(key), key).toBe(false);
  });

  it("hold exactly the ids they were made of", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 300 }), (list) => {
        const bits = bitsOf(list);
        expect([...idsOf(bits)]).toEqual([...list].sort((a, b) => a - b));
        for (const id of [0, 1, 7, 8, 4999, 5000, 6000]) expect(hasBit(bits, id)).toBe(list.includes(id));
      }),
      { numRuns: 300 },
    );
  });

  it("answer any query as a plain reading of it does, whichever keys are stored", async () => {
    const VOCAB = ["ab", "abc", "abd", "b", "bc", "c"];
    const token = fc.record({ text: fc.constantFrom(...VOCAB), prefix: fc.boolean() });
    const query = fc.array(fc.array(fc.array(token, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 3,
    });
    const items = fc.array(fc.subarray(VOCAB), { minLength: 1, maxLength: 70 });
    await fc.assert(
      fc.asyncProperty(items, query, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), async (docs, clauses: Clause[], keep) => {
        const holds = (id: number, t: { text: string; prefix: boolean }) =>
          docs[id].some((w) => (t.prefix ? w.startsWith(t.text) : w === t.text));
        // The GIN index, read plainly: every clause has an alternative whose every token the item holds.
        const gin = async (cs: Clause[]) =>
          Int32Array.from(docs.keys()).filter((id) => cs.every((c) => c.some((alt) => alt.every((t) => holds(id, t)))));
        const stored = new Map<string, Uint8Array>();
        const keys = VOCAB.flatMap((w) => [
          { text: w, prefix: false },
          { text: w, prefix: true },
        ]);
        keys.forEach((t, i) => {
          if (keep[i]) stored.set(keyOf(t), bitsOf(Int32Array.from(docs.keys()).filter((id) => holds(id, t))));
        });
        const got = (await matchByPostings(postingsDb(stored), clauses, gin)) ?? (await gin(clauses));
        expect([...got].sort((a, b) => a - b)).toEqual([...(await gin(clauses))]);
      }),
      { numRuns: 2000 },
    );
  });
});
