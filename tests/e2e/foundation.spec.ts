import { expect, expectAccessible, openIn, test } from "./fixtures";

const CATEGORIES = {
  en: ["Video", "Icon", "Audio", "Package", "Free & Benefit", "Font"],
  ko: ["영상", "아이콘", "오디오", "패키지", "무료 & 혜택", "글꼴"],
} as const;

for (const lang of ["en", "ko"] as const) {
  test(`home page in ${lang}: chrome, metadata, accessibility`, async ({ page }) => {
    await openIn(page, "/", lang);
    const nav = page.getByRole("navigation", { name: lang === "en" ? "Categories" : "카테고리" });
    for (const name of CATEGORIES[lang]) await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    await expect(page.getByRole("search")).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveText("0");
    await expect(page.getByRole("link", { name: lang === "en" ? "Sign in" : "로그인" })).toBeVisible();
    await expect(page.locator("footer")).toContainText(lang === "en" ? "Business registration number" : "사업자등록번호");
    await expect(page).toHaveTitle(lang === "en" ? "Video editing assets | VideoAsset Market" : "영상 편집 에셋 | 비디오에셋 마켓");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/$/);
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/home-${lang}.png`, fullPage: true });
  });

  test(`category landing in ${lang}: items from the catalog, per-category metadata`, async ({ page }) => {
    await openIn(page, "/audio", lang);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang === "en" ? "Audio" : "오디오");
    await expect(page).toHaveTitle(lang === "en" ? "Audio | VideoAsset Market" : "오디오 | 비디오에셋 마켓");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", lang === "en" ? /sound effects/ : /효과음/);
    const best = page.getByRole("list", { name: lang === "en" ? "Best sellers" : "베스트셀러" });
    await expect(best.getByRole("listitem")).toHaveCount(8);
    await expectAccessible(page);
  });
}

test("metadata resets on client-side navigation between categories", async ({ page }) => {
  await openIn(page, "/video", "en");
  await expect(page).toHaveTitle("Video clips | VideoAsset Market");
  await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Font", exact: true }).click();
  await expect(page).toHaveURL(/\/font$/);
  await expect(page).toHaveTitle("Fonts | VideoAsset Market");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/font$/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /typefaces/);
});

test("the language switch changes the page language and is remembered", async ({ page }) => {
  await openIn(page, "/icon", "en");
  await page.getByRole("group", { name: "Language" }).getByRole("link", { name: "한국어" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ko");
  await expect(page).toHaveURL(/\/icon$/);
  await page.goto("/video");
  await expect(page.locator("html")).toHaveAttribute("lang", "ko");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("영상");
});

test("the to-top button appears after scrolling more than 50 px and goes back up", async ({ page }) => {
  await openIn(page, "/", "en");
  const button = page.getByRole("button", { name: "Back to top" });
  await expect(button).toHaveCount(0);
  await page.mouse.wheel(0, 600);
  await expect(button).toBeVisible();
  await button.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(button).toHaveCount(0);
});

test("an unknown path lands on /404 with a home link", async ({ page }) => {
  await openIn(page, "/", "en");
  await page.goto("/this/does/not/exist");
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText("It is an invalid URL.")).toBeVisible();
  await page.getByRole("link", { name: "Go to home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/404");
  await expectAccessible(page);
});

test("policy pages switch between terms, privacy and paid-service terms", async ({ page }) => {
  await openIn(page, "/policy?type=terms", "ko");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("이용약관");
  await page.getByRole("link", { name: "개인정보 처리방침" }).first().click();
  await expect(page).toHaveURL(/type=privacy/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("개인정보 처리방침");
  await expectAccessible(page);
});

test("service pages without chrome pass axe-core", async ({ page }) => {
  await openIn(page, "/", "en");
  for (const path of ["/servicecheck", "/errorservice"]) {
    await page.goto(path);
    await expect(page.locator("header.site-header")).toHaveCount(0);
    await expectAccessible(page);
  }
});

test("the embedded tree asks to be opened from the editor, and shows the licence with the editor's headers", async ({ browser }) => {
  const plainContext = await browser.newContext();
  const plain = await plainContext.newPage();
  await plain.goto("/mypage/sw/home?language=en");
  await expect(plain.getByRole("alert")).toContainText("Open this page from the video editor");
  await expect(plain.locator("header.site-header")).toHaveCount(0);
  await expectAccessible(plain);
  await plainContext.close();

  const context = await browser.newContext({ extraHTTPHeaders: { license_id: "VEDT-IND-0001-DEMO", hw_info: "HW-DEMO-IND-0001" } });
  const page = await context.newPage();
  await page.goto("/mypage/sw/home?language=en");
  await expect(page.getByText("VEDT-IND-0001-DEMO")).toBeVisible();
  await expectAccessible(page);
  await context.close();
});

test("a first visit downloads only its own language's strings, and they reach the hydrated page", async ({ page }) => {
  const scripts: string[] = [];
  page.on("response", async (response) => {
    if (response.url().endsWith(".js")) scripts.push(await response.text().catch(() => ""));
  });
  await openIn(page, "/audio", "ko");
  await expect(page.locator("#i18n-strings")).toHaveCount(1);
  // Hydrated: a client-side navigation renders Korean strings from the document's JSON.
  await page.getByRole("navigation", { name: "카테고리" }).getByRole("link", { name: "글꼴", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("글꼴");
  expect(scripts.length).toBeGreaterThan(3);
  for (const source of scripts) {
    expect(source).not.toContain("Skip to content");
    expect(source).not.toContain("\\uBCF8\\uBB38\\uC73C\\uB85C");
    expect(source).not.toContain("본문으로 건너뛰기");
  }
});
