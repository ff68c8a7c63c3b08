import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitsOf, hasBit, idsOf, itemKeys, keyOf, postingKeys } from "../../app/market/search/postings.server";

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
});
