import type { Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

type Lang = "en" | "ko";

/**
 * The business representative's purchase requests: the header's count leads to the list, the filters, a request's
 * detail and its printable quote in a new window, axe-core on all three. The demo representative has a waiting, a
 * paid and an expired request (app/db/seed/requests.ts); nothing here changes them.
 */
const T = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    requestCount: /^\d+ requests? to pay$/,
    title: "Purchase requests",
    status: "Status",
    expired: "Expired",
    search: "Search",
    detail: "Purchase request details",
    printQuote: /^Print quote/,
    quote: "Quotation",
    paySelected: "Pay selected",
    alreadyPaid: "Payment is already completed for this request.",
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    requestCount: /^결제할 요청 \d+건$/,
    title: "구매 요청 관리",
    status: "상태",
    expired: "기간 만료",
    search: "조회",
    detail: "구매 요청 상세",
    printQuote: /^견적서 출력/,
    quote: "견적서",
    paySelected: "선택 결제",
    alreadyPaid: "이미 결제가 완료된 요청입니다.",
  },
} as const;

async function signInRepresentative(page: Page, lang: Lang) {
  const t = T[lang];
  await openIn(page, "/login?redirectTo=%2F", lang);
  await page.getByLabel(t.email, { exact: true }).fill("business@example.com");
  await page.getByLabel(t.password, { exact: true }).fill("market1234!");
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
}

for (const lang of ["ko", "en"] as const) {
  test(`the representative opens purchase requests, a detail and its quote (${lang})`, async ({ page }) => {
    const t = T[lang];
    await signInRepresentative(page, lang);

    // The header's count is the way in.
    await page.locator(".site-header").getByRole("link", { name: t.requestCount }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/mypage/purchase");
    await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
    const rows = page.locator("table.request-table tbody tr");
    await expect(rows.filter({ hasText: "REQ-DEMO-0001" })).toHaveCount(1);
    await expectAccessible(page);

    // Filter by state: only the expired request is left, and the choice stays in the address.
    await page.getByLabel(t.status).selectOption("expired");
    await page.locator("#main").getByRole("button", { name: t.search, exact: true }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get("state") === "expired");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("REQ-DEMO-0003");
    await expect(rows.first()).toContainText(t.expired);

    // Paying a paid request is refused with the spec's message (through Remix's data request).
    await openIn(page, "/mypage/purchase?state=paid", lang);
    await rows.first().getByRole("checkbox").check();
    await page.getByRole("button", { name: t.paySelected, exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: t.alreadyPaid })).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === "/mypage/purchase");

    // The waiting request's detail.
    await openIn(page, "/mypage/purchase", lang);
    await page.getByRole("link", { name: "REQ-DEMO-0001", exact: true }).click();
    await expect(page).toHaveURL(/\/mypage\/purchase\/\d+$/);
    await expect(page.getByRole("heading", { level: 1, name: t.detail })).toBeVisible();
    await expect(page.getByText("editor1@studio.example")).toBeVisible();
    await expectAccessible(page);

    // The quote opens in a new window, without the storefront's chrome.
    const quoteLink = page.getByRole("link", { name: t.printQuote });
    await expect(quoteLink).toHaveAttribute("target", "_blank");
    await expect(quoteLink).toHaveAttribute("rel", "noopener noreferrer");
    const [quote] = await Promise.all([page.waitForEvent("popup"), quoteLink.click()]);
    const quoteErrors: string[] = [];
    quote.on("console", (m) => {
      if (m.type() === "error") quoteErrors.push(m.text());
    });
    quote.on("pageerror", (e) => quoteErrors.push(e.message));
    await quote.waitForLoadState();
    await expect(quote).toHaveURL(/\/mypage\/estimate\?id=\d+$/);
    await expect(quote.locator("html")).toHaveAttribute("lang", lang);
    await expect(quote.getByRole("heading", { level: 1, name: t.quote })).toBeVisible();
    await expect(quote.getByText("REQ-DEMO-0001")).toBeVisible();
    await expect(quote.locator(".site-header")).toHaveCount(0);
    await expect(quote.getByRole("button", { name: lang === "en" ? "Print" : "인쇄", exact: true })).toBeVisible();
    await expectAccessible(quote);
    // Printing hides the buttons.
    await quote.emulateMedia({ media: "print" });
    await expect(quote.locator(".quote-actions")).toBeHidden();
    expect(quoteErrors, "console errors on the quote").toEqual([]);
    await quote.close();
  });
}

test("a quote link without a login shows the quote; a bad one says it was not found", async ({ page }) => {
  await openIn(page, "/mypage/estimate?token=demo-quote-waiting-7Qm2Xc9Lr4Tz", "en");
  await expect(page.getByRole("heading", { level: 1, name: "Quotation" })).toBeVisible();
  await expectAccessible(page);
  await openIn(page, "/mypage/estimate?token=not-a-real-quote-link-0000", "ko");
  await expect(page.getByText("요청하신 페이지를 찾을 수 없습니다. 올바른 주소로 서비스를 이용해 주세요.")).toBeVisible();
  await expectAccessible(page);
});
