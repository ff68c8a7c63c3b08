/** The fuzzer's samples for this console section: a form body per action route id, a value per dynamic segment. */
export const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {
  "admin-publishing-banners": [
    { intent: "hide", id: "1" },
    { intent: "up", id: "-1; drop table banners" },
  ],
  "admin-publishing-banner": [
    {
      intent: "preview",
      page: "home",
      kind: "banner",
      title_ko: "배너",
      title_en: "Banner",
      subtitle_ko: "",
      subtitle_en: "",
      image_path: "/media/banners/banner-0.svg",
      link: "/price",
      visible: "1",
    },
    {
      intent: "save",
      page: "moon",
      kind: "<script>",
      title_ko: "x",
      title_en: "x",
      image_path: "../../etc/passwd",
      link: "javascript:alert(1)",
    },
  ],
  "admin-publishing-keywords": [
    { intent: "create", page: "home", keyword_ko: "겨울", keyword_en: "winter", visible: "1" },
    { intent: "update", id: "abc", page: "nowhere", keyword_ko: "x".repeat(500), keyword_en: "\n" },
    { intent: "preview", page: "home", keyword_ko: "겨울", keyword_en: "winter", visible: "1" },
    { intent: "preview", id: "1", page: "video", keyword_ko: "<b>", keyword_en: "x".repeat(41) },
  ],
  "admin-publishing-notice": [
    {
      intent: "preview",
      title_ko: "공지",
      title_en: "Notice",
      body_ko: "본문",
      body_en: "Body",
      published_at: "2026-11-26T10:00",
      pinned: "1",
    },
    { intent: "save", title_ko: "", title_en: "<img src=x onerror=alert(1)>", body_ko: "", body_en: "", published_at: "2026-02-31T25:99" },
  ],
  "admin-publishing-event": [
    {
      intent: "preview",
      title_ko: "이벤트",
      title_en: "Event",
      body_ko: "본문",
      body_en: "Body",
      starts_at: "2026-11-26T10:00",
      ends_at: "2026-12-26T10:00",
      coupon_code: "FUZZ10",
      discount_percent: "10",
    },
    {
      intent: "save",
      title_ko: "x",
      title_en: "x",
      starts_at: "tomorrow",
      ends_at: "",
      coupon_code: "'; --",
      discount_percent: "-5",
      image_path: "//evil.example/x.png",
    },
  ],
  "admin-coupons-edit": [
    { intent: "preview", code: "WELCOME20", percent: "20", starts_at: "2026-11-01T00:00", ends_at: "2026-12-31T23:59" },
    { intent: "save", code: "a", percent: "1000", starts_at: "2026-13-01T00:00", ends_at: "x" },
  ],
};
export const PARAMS: Record<string, Record<string, string>> = {
  "admin-publishing-banner": { id: "1" },
  "admin-publishing-notice": { id: "1" },
  "admin-publishing-event": { id: "1" },
  "admin-coupons-edit": { id: "1" },
};
