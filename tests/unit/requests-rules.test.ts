import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { payableUnit, requestDeadline, requestState } from "../../app/market/requests/rules";
import { openHandOff, sealHandOff } from "../../app/market/users/hand-off.server";

const DAY = 86_400_000;

describe("purchase request rules", () => {
  it("a request is payable for 30 days, then expired; paid stays paid", () => {
    const made = new Date("2026-11-01T03:00:00Z");
    const deadline = requestDeadline(made);
    expect(deadline.toISOString()).toBe("2026-12-01T03:00:00.000Z");
    const row = { status: "waiting", expires_at: deadline.toISOString() };
    expect(requestState(row, new Date(deadline.getTime() - 1))).toBe("waiting");
    expect(requestState(row, deadline)).toBe("expired");
    expect(requestState({ ...row, status: "paid" }, new Date(deadline.getTime() + 40 * DAY))).toBe("paid");
    expect(requestState({ ...row, status: "expired" }, made)).toBe("expired");
  });

  it("an item charges the lower of its quoted and current price, nothing once discontinued or not for sale", () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(10_000_000), (quoted, current) => {
        const unit = payableUnit(quoted, { status: "active", price_type: "paid", price: current });
        expect(unit).toBe(Math.min(quoted, current));
        expect(unit).toBeLessThanOrEqual(quoted);
      }),
    );
    expect(payableUnit(1000, { status: "discontinued", price_type: "paid", price: 900 })).toBeNull();
    expect(payableUnit(1000, { status: "active", price_type: "free", price: 0 })).toBeNull();
    expect(payableUnit(1000, { status: "active", price_type: "benefit", price: 0 })).toBeNull();
  });
});

describe("the editor's hand-off token", () => {
  const SECRET = "unit-secret-unit-secret";
  it("opens what it sealed, with the same secret only, and nothing altered", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.nat(), fc.nat(), (h, u, e) => {
        const token = sealHandOff({ h, u, e }, SECRET);
        expect(openHandOff(token, SECRET)).toEqual({ v: 1, h, u, e });
        expect(openHandOff(token, `${SECRET}x`)).toBeNull();
      }),
      { numRuns: 200 },
    );
    const token = sealHandOff({ h: "abc", u: 7, e: 1 }, SECRET);
    const raw = Buffer.from(token, "base64url");
    for (let i = 0; i < raw.length; i++) {
      const bad = Buffer.from(raw);
      bad[i] ^= 1;
      expect(openHandOff(bad.toString("base64url"), SECRET), `byte ${i}`).toBeNull();
    }
    expect(openHandOff("short", SECRET)).toBeNull();
    // Two seals of the same payload differ (a fresh nonce each time).
    expect(sealHandOff({ h: "abc", u: 7, e: 1 }, SECRET)).not.toBe(token);
  });
});
