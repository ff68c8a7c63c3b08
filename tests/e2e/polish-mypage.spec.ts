import type { Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

type Lang = "en" | "ko";
const SHOTS = process.env.POLISH_SHOTS;

async function signIn(page: Page, lang: Lang, email: string, to = "/mypage/home") {
  await openIn(page, `/login?redirectTo=${encodeURIComponent(to)}`, lang);
  await page.getByLabel(lang === "en" ? "E-mail" : "이메일", { exact: true }).fill(email);
  await page.getByLabel(lang === "en" ? "Password" : "비밀번호", { exact: true }).fill("market1234!");
  await page.getByRole("button", { name: lang === "en" ? "Sign in" : "로그인", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[/?]/g, "\\$&")}$`));
}

/** Saves what a user sees, at phone and desktop widths, when POLISH_SHOTS names a folder. */
async function look(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

const MENU = {
  en: {
    label: "My page menu",
    home: "My page home",
    licences: "Licences",
    payments: "Payments",
    inquiries: "Inquiries",
    requests: "Purchase requests",
  },
  ko: {
    label: "마이페이지 메뉴",
    home: "마이페이지 홈",
    licences: "라이선스",
    payments: "결제 내역",
    inquiries: "1:1 문의",
    requests: "구매 요청 관리",
  },
};

for (const lang of ["en", "ko"] as const) {
  test(`the My page menu is on every My page screen, marks the current one and is reachable by keyboard (${lang})`, async ({ page }) => {
    const m = MENU[lang];
    await signIn(page, lang, "member@example.com");
    const menu = page.getByRole("navigation", { name: m.label, exact: true });
    await expect(menu.getByRole("link", { name: m.home, exact: true })).toHaveAttribute("aria-current", "page");
    // A member has no purchase requests: those belong to business accounts.
    await expect(menu.getByRole("link", { name: m.requests })).toHaveCount(0);
    await expectAccessible(page);
    await look(page, `mypage-home-${lang}`);

    // Keyboard: focus moves through the menu to Licences, Enter opens it, and it is marked current.
    const licences = menu.getByRole("link", { name: m.licences, exact: true });
    await menu.getByRole("link", { name: m.home, exact: true }).focus();
    for (let i = 0; i < 10 && !(await licences.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(licences).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/mypage\/licenses$/);
    await expect(
      page.getByRole("navigation", { name: m.label, exact: true }).getByRole("link", { name: m.licences, exact: true }),
    ).toHaveAttribute("aria-current", "page");
    await expectAccessible(page);

    for (const [path, name] of [
      ["/mypage/pay", m.payments],
      ["/mypage/qna", m.inquiries],
      ["/mypage/passes", null],
      ["/mypage/download", null],
      ["/mypage/interest", null],
      ["/mypage/member", null],
    ] as const) {
      await page.goto(path);
      const nav = page.getByRole("navigation", { name: m.label, exact: true });
      await expect(nav).toBeVisible();
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
      if (name) await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    }
    await expectAccessible(page);
  });
}

test("a business account's menu has its purchase requests", async ({ page }) => {
  await signIn(page, "ko", "business@example.com", "/mypage/purchase");
  const menu = page.getByRole("navigation", { name: MENU.ko.label, exact: true });
  await expect(menu.getByRole("link", { name: MENU.ko.requests, exact: true })).toHaveAttribute("aria-current", "page");
  await expectAccessible(page);
  await look(page, "mypage-purchase-ko");
});

test("a blocked pop-up window says so with the spec's message (purchase request quote)", async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await signIn(page, "en", "business@example.com", "/mypage/purchase");
  await page.locator('a[href^="/mypage/purchase/"]').first().click();
  await expect(page).toHaveURL(/\/mypage\/purchase\/\d+$/);
  await page
    .getByRole("link", { name: /Print quote|quote/i })
    .first()
    .click();
  await expect(page.getByRole("alert").filter({ hasText: "Pop-up is blocked, please allow pop-ups" })).toBeVisible();
  await expectAccessible(page);
});

test("a cart refusal is styled as an error, not as a success", async ({ page }) => {
  await openIn(page, "/video", "en");
  await page.locator('a[href^="/contents/video"]').first().click();
  const add = page.getByRole("button", { name: "Add to cart", exact: true });
  await add.click();
  await expect(page.locator(".timed-message.is-info")).toHaveText("Added to cart");
  await add.click();
  await expect(page.locator(".timed-message.is-error")).toHaveText("Already added to cart");
  await expectAccessible(page);
});

test.describe("the webview on a Mac", () => {
  test.use({
    extraHTTPHeaders: { license_id: "VEDT-IND-0003-DEMO", hw_info: "HW-DEMO-IND-0003" },
    userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) VideoEditor/2.0.5",
  });
  test("says downloads need Windows", async ({ page }) => {
    await page.goto("/mypage/sw/download?language=en");
    await expect(page.getByRole("alert").filter({ hasText: "Download not possible on this operating system; use Windows" })).toBeVisible();
    await expectAccessible(page);
  });
});

for (const lang of ["en", "ko"] as const) {
  test(`a stale session is signed out with the message to sign in again (${lang})`, async ({ page, context }) => {
    const text = lang === "en" ? "You have been signed out. Please sign in again." : "로그아웃되었습니다. 다시 로그인해 주세요.";
    await signIn(page, lang, "member@example.com");
    // The session ended elsewhere: gsi is gone while gt and the browser's signed-in flag remain.
    await context.clearCookies({ name: "gsi" });
    await page.goto("/notice");
    await expect(page.getByRole("alert").filter({ hasText: text })).toBeVisible();
    await expect(page.getByRole("link", { name: lang === "en" ? "Sign in" : "로그인", exact: true }).first()).toBeVisible();
    // The page revalidates after showing the message: scan it once it has settled.
    await page.waitForLoadState("networkidle");
    await expectAccessible(page);
    // Shown once: the next page is a visitor's, without the message.
    await page.goto("/notice");
    await expect(page.getByText(text)).toHaveCount(0);
    // Both cookies gone (signed out in another browser window): the browser's flag finds it and says so.
    await signIn(page, lang, "member@example.com");
    // The flag is the page's own (set once it has hydrated): a visitor who leaves before that has no flag to find.
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem("market.signedIn"))).toBe("1");
    await context.clearCookies({ name: "gt" });
    await context.clearCookies({ name: "gsi" });
    await page.goto("/notice");
    await expect(page.getByRole("alert").filter({ hasText: text })).toBeVisible();
  });
}

for (const lang of ["en", "ko"] as const) {
  test(`dead ends lead somewhere: /benefit's See all, /modules and join_market=1 (${lang})`, async ({ page }) => {
    await openIn(page, "/benefit", lang);
    await page
      .getByRole("link", { name: lang === "en" ? "See all" : "전체 보기", exact: true })
      .first()
      .click();
    await expect(page).toHaveURL(/\/list\/benefit\/all$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang === "en" ? "Free & Benefit" : "무료 & 혜택");
    await expect(page.locator('a[href^="/contents/"]').first()).toBeVisible();
    await expectAccessible(page);
    await look(page, `list-benefit-${lang}`);

    await page.goto("/modules");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      lang === "en" ? "Market modules in the editor" : "편집 프로그램의 마켓 모듈",
    );
    await expect(page.getByRole("heading", { level: 2 })).toHaveCount(5);
    await expectAccessible(page);
    await look(page, `modules-${lang}`);

    await page.goto("/video?join_market=1");
    await expect(page).toHaveURL(/\/welcome\?join_market=1&redirectTo=%2Fvideo$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang === "en" ? "Welcome" : "환영합니다");
    await expectAccessible(page);
    await look(page, `welcome-${lang}`);
    await page
      .getByRole("main")
      .getByRole("link", { name: lang === "en" ? "Sign in" : "로그인", exact: true })
      .click();
    await page.getByLabel(lang === "en" ? "E-mail" : "이메일", { exact: true }).fill("member@example.com");
    await page.getByLabel(lang === "en" ? "Password" : "비밀번호", { exact: true }).fill("market1234!");
    await page.getByRole("button", { name: lang === "en" ? "Sign in" : "로그인", exact: true }).click();
    await expect(page).toHaveURL(/\/video$/);
  });
}
