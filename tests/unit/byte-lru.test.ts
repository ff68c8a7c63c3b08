import { describe, expect, it } from "vitest";
import { ByteLru } from "../../app/utils/byte-lru";

const lru = (maxBytes: number, extra: { maxEntries?: number; maxItemBytes?: number } = {}) =>
  new ByteLru<string, string>({ maxBytes, sizeOf: (value) => value.length, ...extra });

describe("ByteLru", () => {
  it("keeps the total under its byte budget, dropping the least recently used first", () => {
    const cache = lru(10, { maxItemBytes: 10 });
    cache.set("a", "xxxx");
    cache.set("b", "xxxx");
    expect(cache.bytes).toBe(8);
    cache.get("a"); // a is now more recent than b
    cache.set("c", "xxxx");
    expect(cache.bytes).toBe(8);
    expect(cache.peek("b")).toBeUndefined();
    expect(cache.peek("a")).toBe("xxxx");
    expect(cache.peek("c")).toBe("xxxx");
  });

  it("evicts as many entries as a big value needs", () => {
    const cache = lru(10, { maxItemBytes: 10 });
    for (const key of ["a", "b", "c", "d", "e"]) cache.set(key, "xx");
    expect(cache.size).toBe(5);
    cache.set("big", "x".repeat(9));
    expect([...["a", "b", "c", "d", "e", "big"]].filter((k) => cache.peek(k) !== undefined)).toEqual(["big"]);
    expect(cache.bytes).toBe(9);
  });

  it("refuses a value larger than an eighth of the budget (unless told), without evicting anything", () => {
    const cache = lru(80);
    cache.set("a", "x".repeat(10));
    expect(cache.set("big", "x".repeat(11))).toBe(false);
    expect(cache.peek("big")).toBeUndefined();
    expect(cache.peek("a")).toBeDefined();
    expect(cache.bytes).toBe(10);
  });

  it("counts a replaced value once", () => {
    const cache = lru(100, { maxItemBytes: 100 });
    cache.set("a", "x".repeat(30));
    cache.set("a", "x".repeat(20));
    expect(cache.bytes).toBe(20);
    expect(cache.size).toBe(1);
    cache.delete("a");
    expect(cache.bytes).toBe(0);
  });

  it("bounds the number of entries as well", () => {
    const cache = lru(1000, { maxEntries: 2 });
    for (const key of ["a", "b", "c"]) cache.set(key, "x");
    expect(cache.size).toBe(2);
    expect(cache.peek("a")).toBeUndefined();
  });

  it("prunes what the predicate picks and gives back its bytes", () => {
    const cache = lru(100, { maxItemBytes: 100 });
    cache.set("old1", "x".repeat(10));
    cache.set("new", "y".repeat(5));
    cache.set("old2", "x".repeat(10));
    expect(cache.prune((value) => value.startsWith("x"))).toBe(2);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(5);
  });

  it("keeps nothing with a budget of zero", () => {
    const cache = lru(0);
    expect(cache.set("a", "x")).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });
});
