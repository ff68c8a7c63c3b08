/** The fuzzer's samples for this console section: a form body per action route id, a value per dynamic segment. */
export const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {
  "admin-modes": [
    { home: "full", start: "2026-12-01T02:00", end: "2026-12-01T06:00", textKo: "점검 안내", textEn: "Inspection notice" },
    {
      home: "<script>alert(1)</script>",
      inspection: ["on", "off"],
      start: "9999-99-99T99:99",
      end: "' OR 1=1 --",
      textKo: "가".repeat(2000),
    },
  ],
};
export const PARAMS: Record<string, Record<string, string>> = {};
