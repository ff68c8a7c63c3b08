import { describe, expect, it } from "vitest";
import { isoToSeoulLocal, modesFormSchema, seoulLocalToIso } from "../../app/admin/modes/modes.server";
import { closedTarget, isAlwaysOpen, modesFingerprint, type ServiceModes } from "../../app/market/service-modes.server";

const modes = (m: Partial<ServiceModes> = {}): ServiceModes => ({
  home: "full",
  inspection: false,
  errorService: false,
  window: null,
  text: { ko: "", en: "" },
  stopNotice: { ko: null, en: null },
  ...m,
});

describe("service modes", () => {
  it("closes the store for error service over inspection, and opens it otherwise", () => {
    expect(closedTarget(modes())).toBeNull();
    expect(closedTarget(modes({ inspection: true }))).toBe("/servicecheck");
    expect(closedTarget(modes({ errorService: true }))).toBe("/errorservice");
    expect(closedTarget(modes({ inspection: true, errorService: true }))).toBe("/errorservice");
  });

  it("never closes the console, the notice pages, the sandbox page or the health check", () => {
    for (const p of ["/admin", "/admin/modes", "/servicecheck", "/errorservice", "/sandbox/pay/1", "/healthz"])
      expect(isAlwaysOpen(p), p).toBe(true);
    for (const p of ["/", "/administrator", "/video", "/mypage/sw/home", "/servicecheck2", "/api/v1/carts/count"])
      expect(isAlwaysOpen(p), p).toBe(false);
  });

  it("changes the page cache's fingerprint with each switch, not with the window's text", () => {
    const base = modesFingerprint(modes());
    expect(modesFingerprint(modes({ home: "service-stop" }))).not.toBe(base);
    expect(modesFingerprint(modes({ inspection: true }))).not.toBe(base);
    expect(modesFingerprint(modes({ errorService: true }))).not.toBe(base);
    expect(modesFingerprint(modes({ text: { ko: "점검", en: "Inspection" } }))).toBe(base);
    // A replaced service-stop picture is another home page (issue 26, point 4).
    const replaced = modes({ stopNotice: { ko: null, en: { image: "/media/publishing/a.png", alt: "Closed" } } });
    expect(modesFingerprint(replaced)).not.toBe(base);
  });

  it("reads the window's times as Korea time and back", () => {
    expect(seoulLocalToIso("2026-12-01T02:00")).toBe("2026-11-30T17:00:00.000Z");
    expect(isoToSeoulLocal("2026-11-30T17:00:00.000Z")).toBe("2026-12-01T02:00");
    expect(isoToSeoulLocal("not a time")).toBe("");
    expect(isoToSeoulLocal(null)).toBe("");
  });

  it("takes both times or neither, the end after the start", () => {
    const ok = { home: "full", start: "2026-12-01T02:00", end: "2026-12-01T03:00" };
    expect(modesFormSchema.safeParse(ok).success).toBe(true);
    expect(modesFormSchema.safeParse({ home: "full", start: "", end: "" }).success).toBe(true);
    expect(modesFormSchema.safeParse({ ...ok, end: "" }).success).toBe(false);
    expect(modesFormSchema.safeParse({ ...ok, end: "2026-12-01T02:00" }).success).toBe(false);
    expect(modesFormSchema.safeParse({ ...ok, start: "2026-13-45T99:99" }).success).toBe(false);
    expect(modesFormSchema.safeParse({ ...ok, home: "closed" }).success).toBe(false);
  });
});
