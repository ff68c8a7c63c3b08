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
