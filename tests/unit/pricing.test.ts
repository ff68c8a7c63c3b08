import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { vbankDueAt } from "../../app/market/orders/deadlines";
import { packagePrice, priceOrder, quoteRefund, type RefundableLine } from "../../app/market/orders/pricing";

const DAY = 86_400_000;
const units = fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 100 });
const methods = fc.constantFrom("card", "phone", "kakaopay", "vbank", "paypal" as const);

describe("order money", () => {
  it("sums parts to the total: amount − discount + VAT, line by line and overall", () => {
    fc.assert(
      fc.property(units, fc.integer({ min: 0, max: 100 }), (u, pct) => {
        const t = priceOrder(
          u.map((unit) => ({ unit })),
          pct,
        );
        expect(t.total).toBe(t.amount - t.discount + t.vat);
        expect(t.lines.reduce((n, l) => n + l.total, 0)).toBe(t.total);
        for (const l of t.lines) {
          expect(Number.isInteger(l.vat) && Number.isInteger(l.discount)).toBe(true);
          expect(l.discount).toBeLessThanOrEqual(l.unit);
          // VAT is 10% of the discounted price, rounded half up to a whole minor unit.
          expect(Math.abs(l.vat - (l.unit - l.discount) / 10)).toBeLessThanOrEqual(0.5);
        }
      }),
    );
  });

  it("refuses prices that are not whole minor units and discounts outside 0–100%", () => {
    expect(() => priceOrder([{ unit: 10.5 }])).toThrow(RangeError);
    expect(() => priceOrder([{ unit: -1 }])).toThrow(RangeError);
    expect(() => priceOrder([{ unit: 100 }], 101)).toThrow(RangeError);
    expect(priceOrder([{ unit: 12_000 }, { unit: 899 }])).toMatchObject({ amount: 12_899, vat: 1_290, total: 14_189 });
  });
});

describe("refunds", () => {
  const paidOrder = fc
    .record({ units: fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 20 }), method: methods })
    .map(({ units: u, method }) => {
      const t = priceOrder(u.map((unit) => ({ unit })));
      const lines: RefundableLine[] = t.lines.map((l, i) => ({ id: i + 1, total: l.total, status: "active", used: false }));
      return { method, lines, paid: t.total };
    });
  const now = new Date("2026-11-22T00:00:00Z");
  const paidAt = new Date(now.getTime() - 2 * DAY).toISOString();

  it("never refunds more than was paid, over any sequence of cancellations, and ends at exactly the paid amount", () => {
    fc.assert(
      fc.property(paidOrder, fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 30 }), (order, picks) => {
        const lines = order.lines.map((l) => ({ ...l }));
        let refundedGross = 0;
        let paidOut = 0;
        for (const pick of [...picks, 0]) {
          const active = lines.filter((l) => l.status === "active");
          if (!active.length) break;
          // 0 = everything left; otherwise one line.
          const selected = pick === 0 ? active.map((l) => l.id) : [active[pick % active.length].id];
          const q = quoteRefund({
            method: order.method,
            paidAt,
            now,
            lines,
            selected,
            paid: order.paid,
            refunded: refundedGross,
            benefitDownloaded: false,
          });
          if (!q.ok) {
            expect(order.method === "phone" && (selected.length !== active.length || refundedGross > 0)).toBe(true);
            continue;
          }
          expect(q.amount).toBe(q.gross - q.deduction);
          expect(q.deduction).toBe(order.method === "vbank" ? Math.round(q.gross / 10) : 0);
          refundedGross += q.gross;
          paidOut += q.amount;
          for (const id of q.lineIds) (lines.find((l) => l.id === id) as RefundableLine).status = "cancelled";
          expect(refundedGross).toBeLessThanOrEqual(order.paid);
        }
        if (lines.every((l) => l.status === "cancelled")) expect(refundedGross).toBe(order.paid);
        expect(paidOut).toBeLessThanOrEqual(order.paid);
      }),
    );
  });

  it("follows the rules: 7 days, not downloaded, benefit downloads block, phone only whole", () => {
    const lines: RefundableLine[] = [
      { id: 1, total: 1100, status: "active", used: false },
      { id: 2, total: 2200, status: "active", used: true },
      { id: 3, total: 3300, status: "cancelled", used: false },
    ];
    const base = { method: "card" as const, paidAt, now, lines, paid: 6600, refunded: 3300, benefitDownloaded: false };
    expect(quoteRefund({ ...base, selected: [1] })).toMatchObject({ ok: true, gross: 1100, amount: 1100 });
    expect(quoteRefund({ ...base, selected: [2] })).toMatchObject({ ok: false, reason: "downloaded", lineIds: [2] });
    expect(quoteRefund({ ...base, selected: [3] })).toMatchObject({ ok: false, reason: "already_cancelled" });
    expect(quoteRefund({ ...base, selected: [] })).toMatchObject({ ok: false, reason: "nothing_selected" });
    expect(quoteRefund({ ...base, selected: [9] })).toMatchObject({ ok: false, reason: "nothing_selected" });
    expect(quoteRefund({ ...base, selected: [1], benefitDownloaded: true })).toMatchObject({ ok: false, reason: "benefit_downloaded" });
    expect(quoteRefund({ ...base, selected: [1], paidAt: null })).toMatchObject({ ok: false, reason: "not_paid" });
    const edge = new Date(Date.parse(paidAt) + 7 * DAY);
    expect(quoteRefund({ ...base, selected: [1], now: edge }).ok).toBe(true);
    expect(quoteRefund({ ...base, selected: [1], now: new Date(edge.getTime() + 1) })).toMatchObject({ ok: false, reason: "window" });
    const fresh = lines.map((l) => ({ ...l, status: "active" as const, used: false }));
    const phone = { ...base, method: "phone" as const, lines: fresh, refunded: 0 };
    expect(quoteRefund({ ...phone, selected: [1] })).toMatchObject({ ok: false, reason: "phone_partial" });
    expect(quoteRefund({ ...phone, selected: [1, 2, 3] })).toMatchObject({ ok: true, gross: 6600, full: true });
    expect(quoteRefund({ ...base, method: "vbank", lines: fresh, refunded: 0, selected: [1, 2, 3] })).toMatchObject({
      gross: 6600,
      deduction: 660,
      amount: 5940,
    });
  });
});

describe("virtual-account deadline", () => {
  it("is 23:59:59 in Seoul on the day after the order, whatever the time of day", () => {
    expect(vbankDueAt(new Date("2026-11-22T00:30:00+09:00"))).toBe("2026-11-23T14:59:59.000Z");
    expect(vbankDueAt(new Date("2026-11-22T23:59:00+09:00"))).toBe("2026-11-23T14:59:59.000Z");
    expect(vbankDueAt(new Date("2026-12-31T15:00:00Z"))).toBe("2027-01-02T14:59:59.000Z"); // 1 Jan 00:00 KST
    fc.assert(
      fc.property(fc.date({ min: new Date("2020-01-01"), max: new Date("2035-01-01"), noInvalidDate: true }), (d) => {
        const due = Date.parse(vbankDueAt(d));
        expect(due - d.getTime()).toBeGreaterThan(DAY - 1000);
        expect(due - d.getTime()).toBeLessThanOrEqual(2 * DAY);
        expect(new Date(due + 9 * 3_600_000).toISOString().slice(11, 19)).toBe("23:59:59");
      }),
    );
  });
});

describe("a package with discontinued members (issue 18, point 11)", () => {
  const member = fc.record({ price: fc.integer({ min: 0, max: 200_000 }), active: fc.boolean() });
  const sums = (ms: { price: number; active: boolean }[]) => ({
    count: ms.length,
    left: ms.filter((m) => m.active).length,
    all: ms.reduce((n, m) => n + m.price, 0),
    remaining: ms.filter((m) => m.active).reduce((n, m) => n + m.price, 0),
  });

  it("keeps its own price while every member is on sale, and cannot be bought with none left", () => {
    expect(packagePrice(50_000, { count: 3, left: 3, all: 30_000, remaining: 30_000 })).toBe(50_000);
    expect(packagePrice(50_000, { count: 0, left: 0, all: 0, remaining: 0 })).toBe(50_000);
    expect(packagePrice(50_000, { count: 3, left: 0, all: 30_000, remaining: 0 })).toBeNull();
  });

  it("is reduced in proportion to the remaining list prices, rounded half up, capped at what they cost alone", () => {
    // 50,000 × 20,000 / 30,000 = 33,333.3 → 33,333; the remaining members cost 20,000 alone, which is lower.
    expect(packagePrice(50_000, { count: 3, left: 2, all: 30_000, remaining: 20_000 })).toBe(20_000);
    // 20,000 × 25,000 / 60,000 = 8,333.3 → 8,333 (below the 25,000 the members cost).
    expect(packagePrice(20_000, { count: 3, left: 2, all: 60_000, remaining: 25_000 })).toBe(8_333);
    // USD cents: 3,999 × 1,500 / 4,000 = 1,499.625 → 1,500 (half up).
    expect(packagePrice(3_999, { count: 4, left: 3, all: 4_000, remaining: 1_500 })).toBe(1_500);
    // Members priced 0: by their count.
    expect(packagePrice(9_000, { count: 3, left: 2, all: 0, remaining: 0 })).toBe(6_000);
  });

  it("never costs more than the package or than its remaining members, and never a fraction of a unit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500_000 }), fc.array(member, { minLength: 1, maxLength: 10 }), (list, ms) => {
        const m = sums(ms);
        const price = packagePrice(list, m);
        if (m.left === m.count) {
          expect(price).toBe(list);
          return;
        }
        if (m.left === 0 || price === null) {
          // Nothing left, or nothing left to pay for (the remaining members are priced 0).
          expect(m.left === 0 || m.remaining === 0 || Math.round((list * m.remaining) / m.all) === 0).toBe(true);
          return;
        }
        expect(Number.isInteger(price)).toBe(true);
        expect(price).toBeGreaterThan(0);
        expect(price).toBeLessThanOrEqual(list);
        if (m.all > 0) expect(price).toBeLessThanOrEqual(m.remaining);
      }),
    );
  });
});
