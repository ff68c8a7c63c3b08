import { seoulText } from "../../app/utils/dates";

describe("seoulText", () => {
  // 03:05 and 15:05 in Seoul (UTC+9).
  const morning = "2026-11-25T18:05:00.000Z";
  const afternoon = "2026-11-26T06:05:00.000Z";

  it("writes Korean times with 오전/오후, never AM/PM", () => {
    for (const style of ["dateTime", "long"] as const) {
      expect(seoulText(morning, "ko", style)).toMatch(/오전 3:05/);
      expect(seoulText(afternoon, "ko", style)).toMatch(/오후 3:05/);
      expect(seoulText(afternoon, "ko", style)).not.toMatch(/AM|PM/);
    }
    expect(seoulText(afternoon, "ko", "date")).toBe("2026. 11. 26.");
  });

  it("leaves English times as they are", () => {
    expect(seoulText(afternoon, "en")).toMatch(/3:05 PM \(KST\)$/);
    expect(seoulText(morning, "en", "long")).toBe("November 26, 2026 at 3:05:00 AM (KST)");
  });

  it("says the zone of every time and of every deadline day, in both languages; a day of record has none (issue 26.6)", () => {
    for (const style of ["dateTime", "long", "until"] as const) {
      expect(seoulText(afternoon, "en", style)).toMatch(/ \(KST\)$/);
      expect(seoulText(afternoon, "ko", style)).toMatch(/ \(한국 시간\)$/);
    }
    // The day in Seoul, not in UTC: 2026-11-25T18:05Z is already the 26th there.
    expect(seoulText(morning, "en", "until")).toBe("Nov 26, 2026 (KST)");
    expect(seoulText(morning, "ko", "until")).toBe("2026. 11. 26. (한국 시간)");
    expect(seoulText(afternoon, "en", "date")).toBe("Nov 26, 2026");
    expect(seoulText(afternoon, "ko", "date")).not.toMatch(/한국 시간|KST/);
  });
});
