import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * The publishing console in both languages: an operator signs in, writes a notice and an event (with a picture and
 * a coupon), looks at each preview first, publishes, and the storefront then shows them. Every console page passes
 * axe-core and logs no console errors (fixtures).
 */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const TEXT = {
  en: {
    publishing: "Publishing",
    notices: "Notices",
    writeNotice: "Write a notice",
    events: "Events",
    createEvent: "Create an event",
    titleKo: "Title (Korean)",
    titleEn: "Title (English)",
    bodyKo: "Text (Korean)",
    bodyEn: "Text (English)",
    pinned: "Pinned to the top of the list",
    newPicture: "New picture",
    couponCode: "Coupon code",
    discount: "Discount (%)",
    preview: "Preview",
    save: "Save and publish",
    saved: "Saved. The storefront shows it within about a second.",
    noticeTitle: "Console notice in English",
    noticeBody: "Written and previewed in the console.",
    eventTitle: "Console event in English",
    eventBody: "An event published from the console.",
    code: "CONSOLEEN",
  },
  ko: {
    publishing: "게시 관리",
    notices: "공지사항",
    writeNotice: "공지사항 작성",
    events: "이벤트",
    createEvent: "이벤트 만들기",
    titleKo: "제목(한국어)",
    titleEn: "제목(영어)",
    bodyKo: "본문(한국어)",
    bodyEn: "본문(영어)",
    pinned: "목록 맨 위에 고정",
    newPicture: "새 이미지",
    couponCode: "쿠폰 코드",
    discount: "할인율(%)",
    preview: "미리보기",
    save: "저장하고 게시",
    saved: "저장했습니다. 약 1초 안에 스토어에 반영됩니다.",
    noticeTitle: "콘솔에서 쓴 공지",
    noticeBody: "콘솔에서 작성하고 미리 본 공지입니다.",
    eventTitle: "콘솔에서 만든 이벤트",
    eventBody: "콘솔에서 게시한 이벤트입니다.",
    code: "CONSOLEKO",
  },
} as const;

for (const lang of ["en", "ko"] as const) {
  const t = TEXT[lang];
  const mine = (ko: string, en: string) => (lang === "ko" ? ko : en);

  test(`publishing a notice and an event with a preview first in ${lang}: the storefront shows them, axe-core clean`, async ({ page }) => {
    // Straight to /admin/publishing after sign-in (the console's home by client navigation asks /admin.data, outside
    // the op cookie's path /admin: reported to the lead).
    await openIn(page, "/admin/login?next=%2Fadmin%2Fpublishing", lang);
    await page.locator('input[name="email"]').fill("operator@example.com");
    await page.locator('input[name="password"]').fill("market1234!");
    await page.locator('form button[type="submit"]').click();
    await expect(page).toHaveURL(/\/admin\/publishing$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.publishing);
    await expect(page.locator('a[href="/admin/publishing/faq"]')).toBeVisible();
    await expect(page.locator('a[href="/admin/publishing/guide"]')).toBeVisible();
    await expectAccessible(page);

    // A notice: preview, then publish, pinned.
    await page.getByRole("main").getByRole("link", { name: t.notices, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.notices);
    await expectAccessible(page);
    await page.getByRole("link", { name: t.writeNotice }).click();
    await page.getByLabel(t.titleKo).fill(mine(t.noticeTitle, "콘솔 공지(영문판)"));
    await page.getByLabel(t.titleEn).fill(mine("Console notice (Korean run)", t.noticeTitle));
    await page.getByLabel(t.bodyKo).fill(mine(t.noticeBody, "영문 화면에서 쓴 공지입니다."));
    await page.getByLabel(t.bodyEn).fill(mine("Written in the Korean console.", t.noticeBody));
    await page.getByLabel(t.pinned).check();
    await page.getByRole("button", { name: t.preview, exact: true }).click();
    const preview = page.getByRole("region", { name: t.preview });
    await expect(preview.getByRole("heading", { name: t.noticeTitle })).toBeVisible();
    await expect(preview.getByText(t.noticeBody)).toBeVisible();
    await expect(page.getByLabel(t.titleKo)).not.toHaveValue("");
    await expectAccessible(page);
    await page.getByRole("button", { name: t.save }).click();
    await expect(page).toHaveURL(/\/admin\/publishing\/notices\?saved=1$/);
    await expect(page.getByRole("status")).toHaveText(t.saved);
    await expect(page.getByRole("link", { name: t.noticeTitle })).toBeVisible();

    // An event with a picture and a coupon: preview, then publish.
    await page.goto("/admin/publishing/events/new");
    await page.getByLabel(t.titleKo).fill(mine(t.eventTitle, "콘솔 이벤트(영문판)"));
    await page.getByLabel(t.titleEn).fill(mine("Console event (Korean run)", t.eventTitle));
    await page.getByLabel(t.bodyKo).fill(mine(t.eventBody, "영문 화면에서 만든 이벤트입니다."));
    await page.getByLabel(t.bodyEn).fill(mine("Made in the Korean console.", t.eventBody));
    await page.getByLabel(t.newPicture).setInputFiles({ name: "event.png", mimeType: "image/png", buffer: PNG });
    await page.getByLabel(t.couponCode).fill(t.code.toLowerCase());
    await page.getByLabel(t.discount).fill("12");
    await page.getByRole("button", { name: t.preview, exact: true }).click();
    const eventPreview = page.getByRole("region", { name: t.preview });
    await expect(eventPreview.getByRole("heading", { name: t.eventTitle })).toBeVisible();
    await expect(eventPreview.locator("code")).toHaveText(t.code);
    await expect(eventPreview.locator("img.event-image")).toHaveAttribute("src", /^\/media\/publishing\/[0-9a-f]+\.png$/);
    await expectAccessible(page);
    await page.getByRole("button", { name: t.save }).click();
    await expect(page).toHaveURL(/\/admin\/publishing\/events\?saved=1$/);
    await expect(page.getByRole("link", { name: t.eventTitle })).toBeVisible();
    await expectAccessible(page);

    // The storefront: the notice is listed first (pinned), the event is running with its coupon.
    await page.goto("/notice");
    await expect(page.locator(".notice-list li").first()).toContainText(t.noticeTitle);
    await page.getByRole("link", { name: t.noticeTitle }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.noticeTitle);
    await expect(page.getByText(t.noticeBody)).toBeVisible();
    await page.goto("/event");
    await page
      .getByRole("link", { name: new RegExp(t.eventTitle) })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.eventTitle);
    await expect(page.locator("code")).toHaveText(t.code);
    await expect(page.locator("img.event-image")).toHaveJSProperty("complete", true);
    await expectAccessible(page);
  });
}
