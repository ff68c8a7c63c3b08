import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { currencyFor, formatMoney, vatOf, withVat } from "../../app/market/money";
import { bpmBand } from "../../app/market/rules";

describe("money", () => {
  it("adds 10% VAT rounded to a whole minor unit, never negative, monotonic", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 1000 }), (a, d) => {
        const vat = vatOf(a);
        expect(Number.isInteger(vat)).toBe(true);
        expect(Math.abs(vat - a / 10)).toBeLessThanOrEqual(0.5);
        expect(withVat(a + d)).toBeGreaterThanOrEqual(withVat(a));
      }),
    );
    expect(withVat(30_000)).toBe(33_000);
    expect(withVat(1999)).toBe(2199);
  });

  it("charges KRW in Korean and USD in English, formatted for the reader", () => {
    expect(currencyFor("ko")).toBe("KRW");
    expect(currencyFor("en")).toBe("USD");
    expect(formatMoney(33_000, "KRW", "ko")).toBe("₩33,000");
    expect(formatMoney(2199, "USD", "en")).toBe("$21.99");
  });
});

describe("BPM bands", () => {
  it("places tempos in the spec's bands", () => {
    expect([0, 59, 60, 89, 90, 119, 120, 200].map(bpmBand)).toEqual([
      "very_slow",
      "very_slow",
      "slow",
      "slow",
      "fast",
      "fast",
      "very_fast",
      "very_fast",
    ]);
  });
});
