/** The fuzzer's samples for this console section: a form body per action route id, a value per dynamic segment. */
export const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {
  "admin-catalog-detail": [
    {
      intent: "update",
      titleKo: "표본 영상",
      titleEn: "Sample clip",
      descriptionKo: "설명",
      descriptionEn: "Description",
      tagsKo: "표본,영상",
      tagsEn: "sample,clip",
      priceType: "paid",
      priceKrw: "10000",
      priceUsd: "799",
      categoryId: "",
      genreId: "",
      moodId: "",
      bpm: "",
      audioSub: "",
    },
    {
      intent: "update",
      titleKo: "<script>alert(1)</script>",
      titleEn: "' OR 1=1 --",
      priceType: "paid'; DROP TABLE contents; --",
      priceKrw: "-1e309",
      priceUsd: "NaN",
      categoryId: "../../etc/passwd",
      bpm: "99999999999999999999",
      tagsEn: ",".repeat(5000),
    },
    { intent: "discontinue", reason: "Fuzz" },
    { intent: "restore", reason: "x".repeat(2000) },
    { intent: "package-add", code: "VI0000001" },
    { intent: "package-remove", contentId: "-1" },
    { intent: "retry-media" },
    { intent: "media-replace", file: "not a file" },
  ],
};
FORM_SAMPLES["admin-catalog-new"] = [
  {
    type: "package",
    titleKo: "표본 패키지",
    titleEn: "Sample package",
    descriptionKo: "",
    descriptionEn: "",
    tagsKo: "",
    tagsEn: "",
    priceType: "free",
    priceKrw: "0",
    priceUsd: "0",
  },
  {
    type: "../../etc/passwd",
    titleKo: "<img src=x onerror=alert(1)>",
    titleEn: "\u0000",
    priceType: "paid",
    priceKrw: "1e99",
    file: "not a file",
  },
];
FORM_SAMPLES["admin-catalog-import"] = [
  { sheet: "type,title_ko,title_en\nicon,표본 아이콘,Sample icon" },
  { sheet: "=cmd|' /C calc'!A0", extra: "<script>" },
];
export const PARAMS: Record<string, Record<string, string>> = {
  "admin-catalog-detail": { id: "1" },
};
