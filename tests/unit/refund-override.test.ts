import { describe, expect, it } from "vitest";
import { quoteRefund } from "../../app/market/orders/pricing";

const now = new Date("2026-11-26T00:00:00Z");
const base = {
  method: "card" as const,
  paidAt: new Date(now.getTime() - 10 * 86_400_000).toISOString(),
  now,
  lines: [
    { id: 1, total: 11000, status: "active" as const, used: true },
    { id: 2, total: 5500, status: "active" as const, used: false },
  ],
  selected: [1],
  paid: 16500,
  refunded: 0,
  benefitDownloaded: true,
};

describe("an operator's override of the member refund rules", () => {
  it("keeps the member rules without it", () => {
    expect(quoteRefund(base)).toMatchObject({ ok: false, reason: "window" });
    expect(quoteRefund({ ...base, paidAt: now.toISOString() })).toMatchObject({ ok: false, reason: "benefit_downloaded" });
    expect(quoteRefund({ ...base, paidAt: now.toISOString(), benefitDownloaded: false })).toMatchObject({
      ok: false,
      reason: "downloaded",
    });
  });

  it("waives the 7-day window and the download rules, nothing else", () => {
    expect(quoteRefund({ ...base, override: true })).toEqual({
      ok: true,
      lineIds: [1],
      gross: 11000,
      deduction: 0,
      amount: 11000,
      full: false,
    });
    expect(quoteRefund({ ...base, method: "vbank", override: true })).toMatchObject({ ok: true, deduction: 1100, amount: 9900 });
    expect(quoteRefund({ ...base, method: "phone", override: true })).toMatchObject({ ok: false, reason: "phone_partial" });
    expect(quoteRefund({ ...base, paidAt: null, override: true })).toMatchObject({ ok: false, reason: "not_paid" });
    expect(quoteRefund({ ...base, lines: [{ ...base.lines[0], status: "cancelled" }, base.lines[1]], override: true })).toMatchObject({
      ok: false,
      reason: "already_cancelled",
    });
  });
});
