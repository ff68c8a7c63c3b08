import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * The console's orders section in Chromium, in Korean and English: the demo member pays an order through the
 * sandbox; the finance operator finds it, sees the gateway's record agree with ours, cancels and refunds it on
 * the member's behalf with a reason; the member's payment history then shows it cancelled. Every page axe-clean.
 */
type Lang = "en" | "ko";

const DEMO = { email: "member@example.com", password: "market1234!", licence: "VEDT-IND-0001-DEMO" };
const FINANCE = { email: "finance@example.com", password: "market1234!" };

const T = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    select: (title: string) => `Select ${title}`,
    buySelected: "Buy selected",
    next: "Next",
    pay: "Pay",
    method: /^Credit card/,
    agreeTerms: /^I agree to the terms of use and the privacy policy/,
    agreePaid: /^I agree to the paid-service terms/,
    approve: "Approve payment",
    number: "Payment number",
    orders: "Orders",
    orderNo: "Order number",
    search: "Search",
    agree: "The gateway's record agrees with ours.",
    reason: "Reason (written in the audit log and sent to the gateway)",
    submit: "Cancel and refund",
    done: /^Cancelled: .+ refunded to the customer\.$/,
    cancelledInConsole: "Cancelled",
    refunded: "Refunded",
    deposits: "Waiting deposits",
    reconciliation: "Reconciliation",
    history: "Cancelled",
    noReason: "Write a reason (2 to 200 characters).",
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    select: (title: string) => `${title} 선택`,
    buySelected: "선택 상품 구매",
    next: "다음",
    pay: "결제하기",
    method: /^신용카드/,
    agreeTerms: /^이용약관 및 개인정보 처리방침에 동의합니다/,
    agreePaid: /^유료 서비스 이용약관에 동의합니다/,
    approve: "결제 승인",
    number: "결제 번호",
    orders: "주문",
    orderNo: "주문번호",
    search: "검색",
    agree: "결제대행사의 기록이 우리 기록과 일치합니다.",
    reason: "사유(감사 로그에 기록되고 결제대행사에 전달됩니다)",
    submit: "취소하고 환불",
    done: /^취소했습니다\. 고객에게 .+을\(를\) 환불했습니다\.$/,
    cancelledInConsole: "취소",
    refunded: "환불 완료",
    deposits: "입금 대기",
    reconciliation: "정산 대사",
    history: "결제 취소",
    noReason: "사유를 2~200자로 입력해 주세요.",
  },
} as const;

/** Paid items from the public API; each language takes its own. */
async function paidItems(request: APIRequestContext, space: string) {
  const res = await request.get(`/api/v1/contents?space=${space}&limit=40`);
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { data: { list: { code: string; type: string; price_type: string; discontinued: boolean }[] } };
  return body.data.list
    .filter((c) => c.price_type === "paid" && !c.discontinued)
    .map((c) => ({ code: c.code, href: `/contents/${c.type}?code=${c.code}` }));
}

const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.documentElement).some((k) => k.startsWith("__reactProps$")));

/** The demo member buys two items with a card through the sandbox; answers the payment number. */
async function memberBuys(page: Page, lang: Lang, space: string) {
  const t = T[lang];
  await openIn(page, "/login?redirectTo=%2F", lang);
  await page.getByLabel(t.email, { exact: true }).fill(DEMO.email);
  await page.getByLabel(t.password, { exact: true }).fill(DEMO.password);
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  const items = (await paidItems(page.request, space)).slice(0, 2);
  expect(items).toHaveLength(2);
  for (const item of items)
    expect((await page.request.post("/cart", { form: { intent: "add", code: item.code, redirectTo: "/cart" } })).ok()).toBe(true);
  await page.goto("/cart");
  const titles: string[] = [];
  for (const item of items) titles.push(((await page.locator(`.cart-line a[href="${item.href}"]`).textContent()) ?? "").trim());
  await hydrated(page);
  for (const title of titles) await page.getByRole("checkbox", { name: t.select(title), exact: true }).check();
  await page.getByRole("button", { name: t.buySelected, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay01");
  await page.getByRole("link", { name: t.next, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay02");
  await page.getByRole("radio", { name: new RegExp(DEMO.licence) }).check();
  await page.getByRole("button", { name: t.next, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay03");
  await page.getByRole("radio", { name: t.method }).check();
  await page.getByRole("checkbox", { name: t.agreeTerms }).check();
  await page.getByRole("checkbox", { name: t.agreePaid }).check();
  await page.getByRole("button", { name: t.pay, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith("/sandbox/pay/"));
  await page.getByRole("button", { name: t.approve, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/payComp");
  const orderNo = (
    (await page
      .locator("dt")
      .filter({ hasText: new RegExp(`^${t.number}$`) })
      .locator("xpath=following-sibling::dd[1]")
      .textContent()) ?? ""
  ).trim();
  expect(orderNo).toMatch(/^MKT-\d{8}-[0-9A-F]{8}$/);
  return { orderNo, titles };
}

/**
 * Signs the finance operator in, coming back to /admin/orders. (Not to /admin: the browser's data request for the
 * console's index, /admin.data, lies outside the `op` cookie's path /admin, so a signed-in client navigation to
 * /admin loops back to the sign-in page; reported to the lead.)
 */
async function operatorSignsIn(page: Page, lang: Lang) {
  const t = T[lang];
  await openIn(page, `/admin/login?next=${encodeURIComponent("/admin/orders")}`, lang);
  await hydrated(page);
  await page.getByLabel(t.email, { exact: true }).fill(FINANCE.email);
  await page.getByLabel(t.password, { exact: true }).fill(FINANCE.password);
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  // The password hash takes its time on a busy machine.
  await expect(page).toHaveURL((url) => url.pathname === "/admin/orders", { timeout: 20_000 });
}

for (const [lang, space] of [
  ["en", "icon"],
  ["ko", "audio"],
] as const) {
  test(`a refund on the member's behalf with a reason, then the member sees it cancelled (${lang})`, async ({ page }) => {
    test.setTimeout(90_000);
    const t = T[lang];
    const { orderNo, titles } = await memberBuys(page, lang, space);

    await operatorSignsIn(page, lang);
    await openIn(page, "/admin/orders", lang);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.orders);
    await expectAccessible(page);
    await page.getByLabel(t.orderNo, { exact: true }).fill(orderNo);
    await page.getByRole("button", { name: t.search, exact: true }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get("orderNo") === orderNo);
    await page.getByRole("link", { name: orderNo, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(orderNo);
    await expect(page.getByText(t.agree, { exact: true })).toBeVisible();
    await expectAccessible(page);

    // Without a reason: the form says so and nothing happens.
    await hydrated(page);
    for (const title of titles)
      await page.getByRole("checkbox", { name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }).check();
    await page.getByLabel(t.reason).evaluate((el) => el.removeAttribute("minlength"));
    await page.getByLabel(t.reason).fill("x");
    await page.getByRole("button", { name: t.submit, exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: t.noReason })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel(t.reason).fill(lang === "en" ? "Bought the wrong pack (ticket 42)" : "잘못 구매함(문의 42번)");
    await page.getByRole("button", { name: t.submit, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: t.done })).toBeVisible();
    await expect(page.locator(".orders-facts").first()).toContainText(t.cancelledInConsole);
    await expect(page.getByRole("table").filter({ hasText: `${orderNo}-R1` })).toContainText(t.refunded);
    await expect(page.getByText(t.agree, { exact: true })).toBeVisible();
    await expectAccessible(page);

    // The section's other pages.
    await page.getByRole("link", { name: t.deposits, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.deposits);
    await expectAccessible(page);
    await page.getByRole("link", { name: t.reconciliation, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.reconciliation);
    await expectAccessible(page);

    // The member's payment history shows the order cancelled.
    await openIn(page, "/mypage/pay", lang);
    const row = page.getByRole("row").filter({ hasText: orderNo });
    await expect(row).toContainText(t.history);
    await expectAccessible(page);
  });
}
