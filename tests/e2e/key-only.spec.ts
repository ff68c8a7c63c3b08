import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * Issue 24, point 2, in Chromium: a key-only buyer buys directly on the website, /payComp says the items are ready
 * in the editor and links to the order's signed page (no /mypage/pay), where the buyer cancels; the editor's webview
 * shows another direct purchase and cancels it; the representative sees the direct purchases of the company's keys.
 * axe-core on each page in ko and en. E2E_SCREENSHOTS=<folder> saves each page at 1280 px and 390 px.
 *
 * Purchases go to the second demo business key (the first key's data belongs to other specs).
 */
type Lang = "en" | "ko";

const KEY = { serial: "VEDT-B2B-0002-DEMO", hwInfo: "HW-DEMO-B2B-0002", email: "editor2@studio.example" };
const REPRESENTATIVE = { email: "business@example.com", password: "market1234!" };
const ORDER_NO = /^MKT-\d{8}-[0-9A-F]{8}$/;

const T = {
  en: {
    select: (title: string) => `Select ${title}`,
    buyDirect: "Buy directly with the key",
    next: "Next",
    serial: "Licence key",
    licenseEmail: "Licensing e-mail",
    lookUp: "Look up",
    card: /^Credit card/,
    agreeTerms: /^I agree to the terms of use and the privacy policy/,
    agreePaid: /^I agree to the paid-service terms/,
    pay: "Pay",
    approve: "Approve payment",
    complete: "Payment complete",
    number: "Payment number",
    ready: /^The items are ready in the editor of this licence key/,
    viewOrder: "View this payment",
    detail: "Payment details",
    direct: "Direct purchase",
    reason: "Reason",
    cancel: "Cancel selected items",
    cancelled: /^Cancelled\. .+ will be refunded\.$/,
    inEditor: /^Downloads happen in the video editor of this licence key/,
    openDownloads: "Open downloads",
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    history: "Payment history",
  },
  ko: {
    select: (title: string) => `${title} 선택`,
    buyDirect: "라이선스 키로 바로 구매",
    next: "다음",
    serial: "라이선스 키",
    licenseEmail: "라이선스 이메일",
    lookUp: "조회",
    card: /^신용카드/,
    agreeTerms: /^이용약관 및 개인정보 처리방침에 동의합니다/,
    agreePaid: /^유료 서비스 이용약관에 동의합니다/,
    pay: "결제하기",
    approve: "결제 승인",
    complete: "결제 완료",
    number: "결제 번호",
    ready: /^이 라이선스 키의 편집 프로그램에서 바로 사용할 수 있습니다/,
    viewOrder: "결제 내역 보기",
    detail: "결제 상세",
    direct: "직접 구매",
    reason: "취소 사유",
    cancel: "선택 상품 취소",
    cancelled: /^취소되었습니다\. .+이 환불됩니다\.$/,
    inEditor: /^다운로드는 이 라이선스 키의 편집 프로그램에서 합니다/,
    openDownloads: "다운로드 열기",
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    history: "결제 내역",
  },
} as const;

// A whole purchase and axe runs per test, on a machine shared with other engineers: more than the default 30 s.
test.describe.configure({ mode: "serial", timeout: 300_000 });

type Item = { code: string; href: string };

/** A paid icon from the public API (not discontinued), the `at`-th one. */
async function paidIcon(request: APIRequestContext, at: number): Promise<Item> {
  const res = await request.get("/api/v1/contents?space=icon&limit=40");
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { data: { list: { code: string; type: string; price_type: string; discontinued: boolean }[] } };
  const items = body.data.list.filter((c) => c.price_type === "paid" && !c.discontinued);
  expect(items.length).toBeGreaterThan(at);
  const c = items[at] as (typeof items)[number];
  return { code: c.code, href: `/contents/${c.type}?code=${c.code}` };
}

const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.documentElement).some((k) => k.startsWith("__reactProps$")));

const definition = (scope: Page | Locator, term: string) =>
  scope
    .locator("dt")
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator("xpath=following-sibling::dd[1]");

/** Both widths, when asked for screenshots. */
async function shots(page: Page, name: string) {
  const folder = process.env.E2E_SCREENSHOTS;
  if (!folder) return;
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: path.resolve(folder, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

/** The website's direct purchase by key: cart → /pay01 → /pay-key → /pay03 (card) → sandbox → /payComp. */
async function buyDirectly(page: Page, request: APIRequestContext, lang: Lang, at: number) {
  const t = T[lang];
  const item = await paidIcon(request, at);
  await openIn(page, "/cart", lang);
  expect((await page.request.post("/cart", { form: { intent: "add", code: item.code, redirectTo: "/cart" } })).ok()).toBe(true);
  await page.goto("/cart");
  const title = ((await page.locator(`.cart-line a[href="${item.href}"]`).textContent()) ?? "").trim();
  await hydrated(page);
  await page.getByRole("checkbox", { name: t.select(title), exact: true }).check();
  await page.getByRole("button", { name: t.buyDirect, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay01");
  await page.getByRole("link", { name: t.next, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay-key");
  await page.getByRole("textbox", { name: t.serial, exact: true }).fill(KEY.serial);
  await page.getByLabel(t.licenseEmail, { exact: true }).fill(KEY.email);
  await page.getByRole("button", { name: t.lookUp, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay03");
  await page.getByRole("radio", { name: t.card }).check();
  await page.getByRole("checkbox", { name: t.agreeTerms }).check();
  await page.getByRole("checkbox", { name: t.agreePaid }).check();
  await page.getByRole("button", { name: t.pay, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith("/sandbox/pay/"));
  await page.getByRole("button", { name: t.approve, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/payComp");
  const orderNo = ((await definition(page, t.number).textContent()) ?? "").trim();
  expect(orderNo).toMatch(ORDER_NO);
  return { orderNo, title };
}

const AT: Record<Lang, number> = { en: 24, ko: 25 };

for (const lang of ["en", "ko"] as const) {
  test(`${lang}: /payComp of a direct purchase leads to the order's signed page, where the buyer cancels`, async ({ page, request }) => {
    const t = T[lang];
    const { orderNo, title } = await buyDirectly(page, request, lang, AT[lang]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.complete);
    await expect(page.getByText(t.ready)).toBeVisible();
    await expect(page.locator('a[href^="/mypage/pay/"]')).toHaveCount(0);
    await expectAccessible(page);
    await shots(page, `payComp-key-${lang}`);

    const view = page.getByRole("link", { name: t.viewOrder, exact: true });
    await expect(view).toHaveAttribute("href", /^\/mypage\/order\/\d+\?access=[\w.-]+$/);
    await view.click();
    await expect(page).toHaveURL((url) => /^\/mypage\/order\/\d+$/.test(url.pathname) && url.searchParams.has("access"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.detail);
    await expect(definition(page, t.number)).toHaveText(orderNo);
    await expect(page.getByText(t.direct, { exact: true })).toBeVisible();
    await expect(page.getByText(t.inEditor)).toBeVisible();
    await expectAccessible(page);
    await shots(page, `key-order-${lang}`);

    await hydrated(page);
    await page.getByRole("checkbox", { name: t.select(title), exact: true }).check();
    await page.getByLabel(t.reason, { exact: true }).fill("e2e");
    await page.getByRole("button", { name: t.cancel, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: t.cancelled })).toBeVisible();
    await expect(page.getByRole("button", { name: t.cancel, exact: true })).toHaveCount(0);
    await expectAccessible(page);
    await shots(page, `key-order-cancelled-${lang}`);
  });
}

test("the editor's webview shows a direct purchase of its key and cancels it, without JavaScript too", async ({
  page,
  request,
  browser,
}) => {
  const { orderNo, title } = await buyDirectly(page, request, "en", 26);
  const headers = { license_id: KEY.serial, hw_info: KEY.hwInfo };
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, extraHTTPHeaders: headers });
  const webview = await context.newPage();
  for (const lang of ["ko", "en"] as const) {
    const t = T[lang];
    await openIn(webview, "/mypage/sw/pay", lang);
    await webview.getByRole("link", { name: orderNo, exact: true }).click();
    await expect(webview).toHaveURL(/\/mypage\/sw\/pay\/\d+$/);
    await expect(webview.getByRole("heading", { level: 1 })).toHaveText(t.detail);
    await expect(webview.getByRole("link", { name: t.openDownloads, exact: true })).toHaveAttribute("href", "/mypage/sw/download");
    expect(await webview.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await expectAccessible(webview);
    await shots(webview, `sw-pay-detail-${lang}`);
  }
  const detail = webview.url();
  await context.close();
  // The cancel form is a plain POST: it works with scripts off (axe needs scripts, so it ran above).
  const plain = await browser.newContext({ viewport: { width: 800, height: 600 }, extraHTTPHeaders: headers, javaScriptEnabled: false });
  const noJs = await plain.newPage();
  await noJs.goto(detail);
  await noJs.getByRole("checkbox", { name: T.en.select(title), exact: true }).check();
  await noJs.getByLabel(T.en.reason, { exact: true }).fill("e2e from the editor");
  await noJs.getByRole("button", { name: T.en.cancel, exact: true }).click();
  await expect(noJs.getByRole("status").filter({ hasText: T.en.cancelled })).toBeVisible();
  await plain.close();
});

for (const lang of ["en", "ko"] as const) {
  test(`${lang}: the representative sees the company keys' direct purchases in the payment history`, async ({ page }) => {
    const t = T[lang];
    await openIn(page, "/login?redirectTo=%2Fmypage%2Fpay", lang);
    await page.getByLabel(t.email, { exact: true }).fill(REPRESENTATIVE.email);
    await page.getByLabel(t.password, { exact: true }).fill(REPRESENTATIVE.password);
    await page.getByRole("button", { name: t.signIn, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/mypage/pay");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.history);
    await expect(page.getByText(t.direct, { exact: true }).first()).toBeVisible();
    await expectAccessible(page);
    await shots(page, `rep-pay-${lang}`);
  });
}
