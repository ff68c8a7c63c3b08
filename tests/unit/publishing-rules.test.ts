import { describe, expect, it } from "vitest";
import { isoToSeoulLocal, seoulLocalToIso } from "../../app/admin/publishing/forms.server";
import { COUPON_CODE } from "../../app/market/orders/coupons.server";
import { bannerLinkOk, MEDIA_PATH } from "../../app/market/publishing/pages";
import { moveInOrder } from "../../app/market/sort-order.server";

describe("publishing rules", () => {
  it("reads console dates in Asia/Seoul and refuses impossible ones", () => {
    expect(seoulLocalToIso("2026-12-01T09:00")).toBe("2026-12-01T00:00:00.000Z");
    expect(seoulLocalToIso("2026-01-01T08:59")).toBe("2025-12-31T23:59:00.000Z");
    expect(seoulLocalToIso("2026-02-31T10:00")).toBeNull();
    expect(seoulLocalToIso("2026-13-01T10:00")).toBeNull();
    expect(seoulLocalToIso("tomorrow")).toBeNull();
    expect(isoToSeoulLocal("2025-12-31T23:59:00.000Z")).toBe("2026-01-01T08:59");
    expect(isoToSeoulLocal(seoulLocalToIso("2026-07-15T23:30") as string)).toBe("2026-07-15T23:30");
  });

  it("moves one id up or down, and leaves the ends alone", () => {
    expect(moveInOrder([1, 2, 3], 3, "up")).toEqual([1, 3, 2]);
    expect(moveInOrder([1, 2, 3], 1, "down")).toEqual([2, 1, 3]);
    expect(moveInOrder([1, 2, 3], 1, "up")).toEqual([1, 2, 3]);
    expect(moveInOrder([1, 2, 3], 3, "down")).toEqual([1, 2, 3]);
    expect(moveInOrder([1, 2, 3], 9, "up")).toEqual([1, 2, 3]);
  });

  it("lets a banner lead into the store or to an https address only", () => {
    for (const ok of ["/price", "/event/3?x=1", "https://example.com/a"]) expect(bannerLinkOk(ok), ok).toBe(true);
    for (const bad of ["//evil.example", "javascript:alert(1)", "http://example.com", "data:text/html,x", "/a b", "\\\\evil", ""])
      expect(bannerLinkOk(bad), bad).toBe(false);
  });

  it("accepts pictures under /media only, and coupon codes of the documented form", () => {
    expect(MEDIA_PATH.test("/media/publishing/abc123.png")).toBe(true);
    expect(MEDIA_PATH.test("/media/../secret.png")).toBe(false);
    expect(MEDIA_PATH.test("https://evil.example/x.png")).toBe(false);
    expect(COUPON_CODE.test("WELCOME20")).toBe(true);
    expect(COUPON_CODE.test("AB")).toBe(false);
    expect(COUPON_CODE.test("NO SPACE")).toBe(false);
  });
});
