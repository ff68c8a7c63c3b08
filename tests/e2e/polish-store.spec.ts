import type { Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * Issue 18's storefront polish in Chromium, in both languages, with axe-core: the business pop-up on a pass page is a
 * modal dialog (labelled, focus inside, Escape closes it), the test-mode banner sits in a landmark, and the search
 * results' heading stays a heading while a live region announces the count.
 */
type Lang = "en" | "ko";
const REPRESENTATIVE = { email: "business@example.com", password: "market1234!" };
const T = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    individualOnly: "This service is for individual members. You will be signed out of the business account.",
    signOut: "OK, sign out",
    testMode: "Test mode",
    count: /results?/,
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    individualOnly: /개인 회원/,
    signOut: /로그아웃/,
    testMode: "테스트 모드",
    count: /개 결과/,
  },
} as const;

async function signInRepresentative(page: Page, lang: Lang) {
  const t = T[lang];
  await openIn(page, "/login?redirectTo=%2F", lang);
  await page.getByLabel(t.email, { exact: true }).fill(REPRESENTATIVE.email);
  await page.getByLabel(t.password, { exact: true }).fill(REPRESENTATIVE.password);
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
}

for (const lang of ["en", "ko"] as const) {
  test(`the business pop-up is a modal dialog: labelled, focus inside, Escape closes it (${lang})`, async ({ page }) => {
    const t = T[lang];
    await signInRepresentative(page, lang);
    await page.goto("/price/video");
    const dialog = page.getByRole("dialog", { name: t.individualOnly });
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).matches(":modal"))).toBe(true);
    await expectAccessible(page);
    // Focus stays in the dialog: tabbing around never reaches the page behind it.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((d) => d.contains(document.activeElement) || document.activeElement === document.body)).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expectAccessible(page);
  });

  test(`the test-mode banner is in a landmark; the search heading stays a heading with a live count (${lang})`, async ({ page }) => {
    const t = T[lang];
    await openIn(page, "/search/video", lang);
    await expect(page.getByRole("complementary", { name: t.testMode })).toBeVisible();
    const heading = page.locator("#results-h");
    expect(await heading.evaluate((h) => h.tagName)).toBe("H2");
    expect(await heading.getAttribute("role")).toBeNull();
    const live = page.getByRole("status").filter({ hasText: t.count });
    await expect(live).toHaveText((await heading.textContent()) ?? "");
    await expectAccessible(page);
  });
}

/** Adds the first item of a list to the cart from its detail page. */
async function addFirstOf(page: Page, type: "video" | "icon", addToCart: string) {
  await page.goto(`/list/${type}/all`);
  await page.locator(`main a[href^="/contents/${type}?code="]`).first().click();
  await expect(page).toHaveURL(/\/contents\//);
  await page.getByRole("button", { name: addToCart, exact: true }).click();
  await expect(page.locator(".detail-actions").getByRole("status")).not.toBeEmpty();
}

const CART = {
  en: { addToCart: "Add to cart", tabs: "Item types", all: /^All/, video: /^Video/, selectAll: "Select all" },
  ko: { addToCart: "장바구니 담기", tabs: "콘텐츠 유형", all: /^전체/, video: /^영상/, selectAll: "전체 선택" },
} as const;

for (const lang of ["en", "ko"] as const) {
  test(`cart lines start selected and an unticked line stays unticked across tabs (${lang})`, async ({ page }) => {
    const c = CART[lang];
    await openIn(page, "/", lang);
    await addFirstOf(page, "video", c.addToCart);
    await addFirstOf(page, "icon", c.addToCart);
    await page.goto("/cart");
    const boxes = page.locator('input[name="cart_id"]');
    await expect(boxes).toHaveCount(2);
    for (const box of await boxes.all()) await expect(box).toBeChecked();
    await expect(page.getByLabel(c.selectAll)).toBeChecked();
    await expectAccessible(page);
    const video = page.locator('input[name="cart_id"]').first();
    const id = await video.getAttribute("value");
    await video.uncheck();
    const tabs = page.getByRole("navigation", { name: c.tabs });
    await tabs.getByRole("button", { name: c.video }).click();
    await expect(page).toHaveURL(/type=video/);
    await tabs.getByRole("button", { name: c.all }).click();
    await expect(page).toHaveURL((url) => !url.searchParams.has("type"));
    await expect(page.locator(`input[name="cart_id"][value="${id}"]`)).not.toBeChecked();
    await expect(page.locator('input[name="cart_id"]:checked')).toHaveCount(1);
    await expectAccessible(page);
  });
}
