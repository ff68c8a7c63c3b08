import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitsOf, hasBit, idsOf, postingKeys, queryKey } from "../../app/market/search/postings.server";

describe("stored bitsets of frequent keys", () => {
  it("key a document's tokens by themselves and by their prefixes of three characters or more", () => {
    expect([...postingKeys(["piano", "피아", "ab", "ㅍㅇ"])].sort()).toEqual(
      ["ab", "pia*", "pian*", "piano", "piano*", "ㅍㅇ", "피아"].sort(),
    );
    // Characters, not UTF-16 units.
    expect([...postingKeys(["a😀bc"])].sort()).toEqual(["a😀b*", "a😀bc", "a😀bc*"].sort());
  });

  it("look a query token up by the same keys", () => {
    expect(queryKey({ text: "pian", prefix: true })).toBe("pian*");
    expect(queryKey({ text: "piano", prefix: false })).toBe("piano");
    for (const token of ["piano", "피아노곡"])
      for (const n of [3, 4])
        expect(postingKeys([token]).has(queryKey({ text: [...token].slice(0, n).join(""), prefix: true }))).toBe(true);
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
});
