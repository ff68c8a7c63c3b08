import { describe, expect, it } from "vitest";
import { passState } from "../../app/market/pass-status";
import { passGroupOf } from "../../app/market/passes.server";

describe("pass price groups (spec section 3)", () => {
  it("maps contents_flag and contents_type_sub to the six groups", () => {
    expect(passGroupOf(1, null)).toBe("image");
    expect(passGroupOf(2, null)).toBe("video");
    expect(passGroupOf(4, 3001)).toBe("audio_se");
    expect(passGroupOf(4, 3002)).toBe("audio_bgm");
    expect(passGroupOf(4, 3003)).toBe("audio_ai");
    expect(passGroupOf(8, null)).toBe("font");
    expect(passGroupOf(16, null)).toBe("font");
  });
});

describe("a pass's status (issue 26.5: one rule for every door)", () => {
  const now = new Date("2026-11-28T00:00:00.000Z");
  const later = "2027-02-01T00:00:00.000Z";
  const before = "2026-11-27T00:00:00.000Z";
  it("is used up with 0 left while its period runs, not expired", () => {
    expect(passState({ status: "available", remaining: 0, expiresAt: later }, now)).toBe("used_up");
    expect(passState({ status: "available", remaining: 3, expiresAt: later }, now)).toBe("available");
  });
  it("is expired at or past its end, whatever is left (the end decides when both apply)", () => {
    expect(passState({ status: "available", remaining: 3, expiresAt: before }, now)).toBe("expired");
    expect(passState({ status: "available", remaining: 0, expiresAt: before }, now)).toBe("expired");
    expect(passState({ status: "available", remaining: 3, expiresAt: now.toISOString() }, now)).toBe("expired");
    expect(passState({ status: "expired", remaining: 3, expiresAt: later }, now)).toBe("expired");
  });
  it("is unavailable once cancelled, before anything else", () => {
    expect(passState({ status: "unavailable", remaining: 0, expiresAt: before }, now)).toBe("unavailable");
    expect(passState({ status: "unavailable", remaining: 5, expiresAt: later }, now)).toBe("unavailable");
  });
});
