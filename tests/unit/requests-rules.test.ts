import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { payableUnit, requestDeadline, requestState } from "../../app/market/requests/rules";
import { handOffKindOf, openHandOff, sealHandOff } from "../../app/market/users/hand-off.server";

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
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.constantFrom("member", "key", "join" as const),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (h, k, u, l, e) => {
          const token = sealHandOff({ h, k, u, l, e }, SECRET);
          expect(openHandOff(token, SECRET)).toEqual({ v: 2, h, k, u, l, e });
          expect(openHandOff(token, `${SECRET}x`)).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
    const token = sealHandOff({ h: "abc", k: "member", u: 7, l: 3, e: 1 }, SECRET);
    const raw = Buffer.from(token, "base64url");
    for (let i = 0; i < raw.length; i++) {
      const bad = Buffer.from(raw);
      bad[i] ^= 1;
      expect(openHandOff(bad.toString("base64url"), SECRET), `byte ${i}`).toBeNull();
    }
    expect(openHandOff("short", SECRET)).toBeNull();
    // Two seals of the same payload differ (a fresh nonce each time).
    expect(sealHandOff({ h: "abc", k: "member", u: 7, l: 3, e: 1 }, SECRET)).not.toBe(token);
  });

  it("never opens an account's session for a business key or a business account (one rule)", () => {
    const member1 = { userType: 1 };
    const business = { userType: 2 };
    const individualOwner = { email: "a@x.example", userType: 1 as const };
    const businessOwner = { email: "b@x.example", userType: 2 as const };
    // A B2BG key: key-only whatever the account service says and whoever has the e-mail.
    for (const owner of [null, individualOwner, businessOwner])
      for (const member of [undefined, member1, business]) expect(handOffKindOf({ ownerKind: "b2bg" }, owner, member)).toBe("key");
    // The account service says the seat belongs to a business account: key-only.
    expect(handOffKindOf({ ownerKind: "individual" }, businessOwner, member1)).toBe("key");
    // An individual key of a market member: that member; of a business market account: key-only.
    expect(handOffKindOf({ ownerKind: "individual" }, individualOwner, member1)).toBe("member");
    expect(handOffKindOf({ ownerKind: "individual" }, individualOwner, business)).toBe("key");
    // Nobody in the market owns it: join and link.
    expect(handOffKindOf({ ownerKind: "nonmember" }, null, undefined)).toBe("join");
    expect(handOffKindOf({ ownerKind: "individual" }, individualOwner, undefined)).toBe("join");
  });
});
