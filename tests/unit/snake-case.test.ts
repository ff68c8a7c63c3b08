import { describe, expect, it } from "vitest";
import { snakeKeys } from "../../app/api/snake-case";

describe("snakeKeys (the API's one conversion to the wire's names)", () => {
  it("turns keys into snake_case all the way down an answer, values untouched", () => {
    expect(snakeKeys({ totalCount: 2, list: [{ itemCode: "VI0000001", priceType: "paid", tags: ["aB"] }] })).toEqual({
      total_count: 2,
      list: [{ item_code: "VI0000001", price_type: "paid", tags: ["aB"] }],
    });
  });

  it("takes a hostile body 20,000 levels deep without overflowing the stack (the schema refuses it after)", () => {
    const deep = JSON.parse(`${"[".repeat(20_000)}${"]".repeat(20_000)}`);
    expect(() => snakeKeys(deep)).not.toThrow();
    const nested = JSON.parse(`${'{"aB":'.repeat(5_000)}1${"}".repeat(5_000)}`);
    const out = snakeKeys(nested) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["a_b"]);
  });
});
