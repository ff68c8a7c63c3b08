import path from "node:path";
import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * Business customers in the browser: a key-only user of a company's licence asks the company's representative to
 * pay (from the editor's webview), the representative pays on the website, and the editor then holds the items; a
 * key-only direct purchase on the website; the website's purchase request form without JavaScript; axe-core on the
 * new pages in both languages.
 *
 * Every purchase and request here goes to the second demo business key (VEDT-B2B-0002-DEMO): the first key's seeded
 * requests and its empty download list belong to purchase.spec.ts and embedded-downloads.spec.ts.
 * E2E_SCREENSHOTS=<folder> saves a full-page screenshot of each new page, to look at them.
 */
type Lang = "en" | "ko";

const KEY = { serial: "VEDT-B2B-0002-DEMO", hwInfo: "HW-DEMO-B2B-0002", email: "editor2@studio.example" };
const INDIVIDUAL = { serial: "VEDT-IND-0001-DEMO", email: "member@example.com" };
const REPRESENTATIVE = { email: "business@example.com", password: "market1234!" };
const ORDER_NO = /^MKT-\d{8}-[0-9A-F]{8}$/;
const REQUEST_NO = /^REQ-\d{8}-[0-9A-F]{8}$/;

const T = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    addToCart: "Add to cart",
    added: /^(Added to cart|Already added to cart)$/,
    select: (title: string) => `Select ${title}`,
    requestPurchase: "Request purchase",
    buyDirect: "Buy directly with the key",
    checkout: "Checkout",
    requestTitle: "Purchase request",
    keyStep: "Look up the licence key",
    writeStep: "Write the request",
    doneStep: "Done: the quote",
    serial: "Licence key",
    licenseEmail: "Licensing e-mail",
    lookUp: "Look up",
    notBusiness: "This license key is for individual members or non-members. Please check again.",
    requesterEmail: "Your e-mail (required)",
    message: "Message (required)",
    send: "Send the request",
    tooLong: "The message can be up to 100 characters.",
    sent: "Purchase request sent",
    requestNumber: "Request number",
    payableUntil: "Payable until",
    openQuote: "Open the quote",
    quote: "Quotation",
    next: "Next",
    method: { card: /^Credit card/ },
    agreeTerms: /^I agree to the terms of use and the privacy policy/,
    agreePaid: /^I agree to the paid-service terms/,
    pay: "Pay",
    approve: "Approve payment",
    complete: "Payment complete",
    number: "Payment number",
    swPay: "Payment history",
    swDownload: "Downloads",
    downloadSubmit: "Download to the editor",
    openEditor: "Open in the video editor",
    categoryRequest: "Purchase request",
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    addToCart: "장바구니 담기",
    added: /^(장바구니에 담았습니다|이미 장바구니에 담긴 콘텐츠입니다)$/,
    select: (title: string) => `${title} 선택`,
    requestPurchase: "구매 요청",
    buyDirect: "라이선스 키로 바로 구매",
    checkout: "결제하기",
    requestTitle: "구매 요청",
    keyStep: "라이선스 키 조회",
    writeStep: "요청서 작성",
    doneStep: "완료: 견적서",
    serial: "라이선스 키",
    licenseEmail: "라이선스 이메일",
    lookUp: "조회",
    notBusiness: "개인 회원 또는 비회원용 라이선스 키입니다. 다시 확인해 주세요.",
    requesterEmail: "요청자 이메일 (필수)",
    message: "메시지 (필수)",
    send: "구매 요청 보내기",
    tooLong: "메시지는 100자까지 입력할 수 있습니다.",
    sent: "구매 요청 완료",
    requestNumber: "요청 번호",
    payableUntil: "결제 가능 기한",
    openQuote: "견적서 보기",
    quote: "견적서",
    next: "다음",
    method: { card: /^신용카드/ },
    agreeTerms: /^이용약관 및 개인정보 처리방침에 동의합니다/,
    agreePaid: /^유료 서비스 이용약관에 동의합니다/,
    pay: "결제하기",
    approve: "결제 승인",
    complete: "결제 완료",
    number: "결제 번호",
    swPay: "결제 내역",
    swDownload: "다운로드",
    downloadSubmit: "편집 프로그램으로 다운로드",
    openEditor: "영상 편집 프로그램에서 열기",
    categoryRequest: "구매 요청",
  },
} as const;

type Item = { code: string; href: string };

/** Paid items of one space from the public API (not discontinued), from `from` on. */
async function paidItems(request: APIRequestContext, space: string, from: number, count: number) {
  const res = await request.get(`/api/v1/contents?space=${space}&limit=40`);
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { data: { list: { code: string; type: string; price_type: string; discontinued: boolean }[] } };
  const items: Item[] = body.data.list
    .filter((c) => c.price_type === "paid" && !c.discontinued)
    .map((c) => ({ code: c.code, href: `/contents/${c.type}?code=${c.code}` }));
  expect(items.length, `paid items in ${space}`).toBeGreaterThanOrEqual(from + count);
  return items.slice(from, from + count);
}

/** Adds items through the cart's own form action with the page's cookies (the visitor's ngt token). */
async function addByRequest(page: Page, items: Item[]) {
  for (const item of items)
    expect((await page.request.post("/cart", { form: { intent: "add", code: item.code, redirectTo: "/cart" } })).ok()).toBe(true);
}

/** The cart line's title of an item (the cart lists it in the page's language). */
async function cartTitle(page: Page, item: Item) {
  return ((await page.locator(`.cart-line a[href="${item.href}"]`).textContent()) ?? "").trim();
}

/** Waits for React to hydrate the page (the root element is hydrated last), so controlled inputs keep what is ticked. */
const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.documentElement).some((k) => k.startsWith("__reactProps$")));

/** The <dd> that follows the <dt> with exactly this text. */
const definition = (scope: Page | Locator, term: string) =>
  scope
    .locator("dt")
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator("xpath=following-sibling::dd[1]");

const currentStep = (page: Page) => page.locator('.pay-steps [aria-current="step"]');

/** The fixture's console and failed-response checks, for pages of other contexts (their errors fail the test too). */
function watch(page: Page, errors: string[]) {
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() < 400 || r.request().resourceType() === "document") return;
    const formAnswer = r.request().method() === "POST" && new URL(r.url()).pathname.endsWith(".data") && r.status() < 500;
    if (!formAnswer) errors.push(`${r.status()} ${r.url()}`);
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return page;
}

/** A browser context of the editor's webview: the editor's smallest window and its licence headers. */
async function editorWebview(browser: Browser, errors: string[]) {
  const context = await browser.newContext({
    viewport: { width: 800, height: 600 },
    extraHTTPHeaders: { license_id: KEY.serial, hw_info: KEY.hwInfo },
  });
  return { context, page: watch(await context.newPage(), errors) };
}

async function shot(page: Page, name: string) {
  const folder = process.env.E2E_SCREENSHOTS;
  if (folder) await page.screenshot({ path: path.resolve(folder, `${name}.png`), fullPage: true });
}

async function signInRepresentative(page: Page, lang: Lang) {
  const t = T[lang];
  await openIn(page, "/login?redirectTo=%2F", lang);
  await page.getByLabel(t.email, { exact: true }).fill(REPRESENTATIVE.email);
  await page.getByLabel(t.password, { exact: true }).fill(REPRESENTATIVE.password);
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
}

/** On /pay-key: the key and its licensing e-mail, Look up. */
async function lookUp(page: Page, lang: Lang, serial: string, email: string) {
  const t = T[lang];
  await page.getByRole("textbox", { name: t.serial, exact: true }).fill(serial);
  await page.getByLabel(t.licenseEmail, { exact: true }).fill(email);
  await page.getByRole("button", { name: t.lookUp, exact: true }).click();
}

/** On /pay03: card, both agreements, Pay, then approve at the sandbox gateway; answers the /payComp page's payment number. */
async function payByCard(page: Page, lang: Lang) {
  const t = T[lang];
  await expect(page).toHaveURL((url) => url.pathname === "/pay03");
  await page.getByRole("radio", { name: t.method.card }).check();
  await page.getByRole("checkbox", { name: t.agreeTerms }).check();
  await page.getByRole("checkbox", { name: t.agreePaid }).check();
  await page.getByRole("button", { name: t.pay, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith("/sandbox/pay/"));
  await page.getByRole("button", { name: t.approve, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/payComp");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.complete);
  const orderNo = ((await definition(page, t.number).textContent()) ?? "").trim();
  expect(orderNo).toMatch(ORDER_NO);
  return orderNo;
}

test("journey: the editor's user requests the cart, the representative pays it by card, the editor holds the items", async ({
  page,
  browser,
  request,
  consoleErrors,
}) => {
  const t = T.ko;
  const items = await paidItems(request, "video", 20, 2);

  // The representative is signed in on the website: the header counts the requests waiting for payment.
  await signInRepresentative(page, "ko");
  const count = page.locator(".site-header").getByRole("link", { name: /^결제할 요청 \d+건$/ });
  const before = Number(((await count.textContent()) ?? "").replace(/\D/g, ""));

  // The user of the company's key shops on the storefront inside the editor's webview.
  const editor = await editorWebview(browser, consoleErrors);
  const webview = editor.page;
  const titles: string[] = [];
  for (const [i, item] of items.entries()) {
    if (i === 0) await openIn(webview, item.href, "ko");
    else await webview.goto(item.href);
    titles.push(((await webview.getByRole("heading", { level: 1 }).textContent()) ?? "").trim());
    await hydrated(webview);
    await webview.getByRole("button", { name: t.addToCart, exact: true }).click();
    await expect(webview.locator(".detail-actions").getByRole("status")).toHaveText(t.added);
  }

  // The purchase request tab: the cart's items, ticked; the key comes from the editor's headers.
  await webview.goto("/mypage/sw/request");
  await expect(webview.getByRole("heading", { level: 1 })).toHaveText(t.requestTitle);
  await expect(webview.getByRole("navigation").getByRole("link", { name: t.requestTitle, exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(webview.getByText(/데모 스튜디오/).first()).toBeVisible();
  for (const title of titles) await expect(webview.getByRole("checkbox", { name: t.select(title), exact: true })).toBeChecked();
  expect(await webview.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
  await expectAccessible(webview);
  await shot(webview, "sw-request-ko");
  await hydrated(webview);
  await webview.getByLabel(t.requesterEmail, { exact: true }).fill("lee@studio.example");
  await webview.getByLabel(t.message, { exact: true }).fill("데모 스튜디오 편집팀 이영상: e2e 요청");
  await webview.getByRole("button", { name: t.send, exact: true }).click();
  await expect(webview.getByRole("heading", { level: 1 })).toHaveText(t.sent);
  const requestNo = ((await definition(webview, t.requestNumber).textContent()) ?? "").trim();
  expect(requestNo).toMatch(REQUEST_NO);
  await expectAccessible(webview);
  await shot(webview, "sw-request-done-ko");

  // The quote link opens the printable quote of this request.
  const [quote] = await Promise.all([webview.waitForEvent("popup"), webview.getByRole("link", { name: t.openQuote }).click()]);
  watch(quote, consoleErrors);
  await expect(quote).toHaveURL(/\/mypage\/estimate\?token=[\w-]+$/);
  await expect(quote.getByRole("heading", { level: 1, name: t.quote })).toBeVisible();
  await expect(quote.getByText(requestNo)).toBeVisible();
  for (const title of titles) await expect(quote.getByText(title, { exact: true })).toBeVisible();
  await quote.close();

  // The representative sees one more request in the header, opens it and pays it.
  await page.reload();
  await expect(count).toHaveText(`결제할 요청 ${before + 1}건`);
  await count.click();
  await expect(page).toHaveURL((url) => url.pathname === "/mypage/purchase");
  await page.getByRole("link", { name: requestNo, exact: true }).click();
  await expect(page).toHaveURL(/\/mypage\/purchase\/\d+$/);
  const detailUrl = page.url();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("구매 요청 상세");
  await expect(page.getByText("lee@studio.example")).toBeVisible();
  for (const title of titles) await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(1);
  await page.locator("#main").getByRole("button", { name: "결제하기", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay01");
  const lines = page.getByRole("list", { name: "주문 상품", exact: true }).getByRole("listitem");
  await expect(lines).toHaveCount(2);
  for (const title of titles) await expect(lines.filter({ hasText: title })).toHaveCount(1);
  await page.getByRole("link", { name: t.next, exact: true }).click();
  const orderNo = await payByCard(page, "ko");
  await expect(page.getByText("요청자는 편집 프로그램에서 바로 다운로드할 수 있습니다.")).toBeVisible();
  await page.goto(detailUrl);
  await expect(definition(page, "상태")).toHaveText("결제 완료");
  await expect(definition(page, "결제 번호")).toHaveText(orderNo);

  // Back in the editor: the payment in the key's history, the items among its downloads, handed over to the editor.
  await webview.goto("/mypage/sw/pay");
  const row = webview.getByRole("row").filter({ has: webview.getByRole("link", { name: orderNo, exact: true }) });
  await expect(row.getByRole("cell").last()).toHaveText(t.complete);
  await hydrated(webview);
  await row.getByRole("link", { name: orderNo, exact: true }).click();
  await expect(webview).toHaveURL(/\/mypage\/sw\/pay\/\d+$/);
  await expect(definition(webview, "구매 구분")).toHaveText(t.categoryRequest);
  for (const title of titles) await expect(webview.getByRole("row").filter({ hasText: title })).toHaveCount(1);
  await webview.getByRole("navigation").getByRole("link", { name: t.swDownload, exact: true }).click();
  await expect(webview).toHaveURL((url) => url.pathname === "/mypage/sw/download");
  await hydrated(webview);
  for (const title of titles) await webview.getByRole("checkbox", { name: t.select(title), exact: true }).check();
  await webview.getByRole("button", { name: t.downloadSubmit, exact: true }).click();
  await expect(webview).toHaveURL((url) => url.pathname === "/mypage/sw/download/start" && url.searchParams.has("token"));
  await expect(webview.getByRole("link", { name: t.openEditor, exact: true })).toHaveAttribute(
    "href",
    /^videoasset-editor:\/\/download\?token=[\w-]+&store=/,
  );
  await editor.context.close();
});

test("a key-only direct purchase on the website in Korean: cart → key (a wrong one first) → card → sandbox → done", async ({
  page,
  request,
}) => {
  const t = T.ko;
  const [item] = await paidItems(request, "icon", 12, 1);
  await openIn(page, "/cart", "ko");
  await addByRequest(page, [item]);
  await page.goto("/cart");
  const title = await cartTitle(page, item);
  await expect(page.getByRole("group", { name: "기업 라이선스 키 사용자이신가요?" })).toBeVisible();
  await expectAccessible(page);
  await shot(page, "cart-visitor-ko");

  await hydrated(page);
  await page.getByRole("checkbox", { name: t.select(title), exact: true }).check();
  await page.getByRole("button", { name: t.buyDirect, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay01");
  await expect(page.getByRole("list", { name: "주문 상품", exact: true })).toContainText(title);
  await page.getByRole("link", { name: t.next, exact: true }).click();

  // The key lookup, step 2 of the payment: an individual's key is refused with the spec's message, values kept.
  await expect(page).toHaveURL((url) => url.pathname === "/pay-key");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.checkout);
  await expect(currentStep(page)).toContainText("편집 프로그램 라이선스 선택");
  await lookUp(page, "ko", INDIVIDUAL.serial, INDIVIDUAL.email);
  await expect(page.getByRole("alert").filter({ hasText: t.notBusiness })).toHaveText(t.notBusiness);
  await expect(page).toHaveURL((url) => url.pathname === "/pay-key");
  await expect(page.getByRole("textbox", { name: t.serial, exact: true })).toHaveValue(INDIVIDUAL.serial);
  await expect(page.getByLabel(t.licenseEmail, { exact: true })).toHaveValue(INDIVIDUAL.email);
  await expectAccessible(page);
  await shot(page, "pay-key-direct-error-ko");

  await lookUp(page, "ko", KEY.serial, KEY.email);
  await expect(page).toHaveURL((url) => url.pathname === "/pay03");
  await expect(page.getByText(`라이선스 키 ${KEY.serial}(으)로 구매합니다. 영수증은 ${KEY.email}(으)로 발송됩니다.`)).toBeVisible();
  await payByCard(page, "ko");
  await expect(currentStep(page)).toContainText("결제 완료");
  await expect(page.getByText(/^이 라이선스 키의 편집 프로그램에서 바로 사용할 수 있습니다/)).toBeVisible();
  await expect(definition(page, "콘텐츠")).toHaveText(title);
  await expectAccessible(page);
  await shot(page, "payComp-direct-ko");
  // The same page in English (the language query reloads it from the checkout in the session).
  await openIn(page, "/payComp", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(T.en.complete);
  await expect(page.getByText(/^The items are ready in the editor of this licence key/)).toBeVisible();
  await expectAccessible(page);
  await shot(page, "payComp-direct-en");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the purchase request form: a 101-character message is refused with the values kept, then sent", async ({ page, request }) => {
    const t = T.en;
    const [item] = await paidItems(request, "audio", 12, 1);
    await openIn(page, "/cart", "en");
    await addByRequest(page, [item]);
    await page.goto("/cart");
    await page.getByRole("checkbox", { name: t.select(await cartTitle(page, item)), exact: true }).check();
    await page.getByRole("button", { name: t.requestPurchase, exact: true }).click();

    await expect(page).toHaveURL((url) => url.pathname === "/pay-key");
    await expect(currentStep(page)).toContainText(t.keyStep);
    await lookUp(page, "en", KEY.serial, KEY.email);

    await expect(page).toHaveURL((url) => url.pathname === "/request");
    await expect(currentStep(page)).toContainText(t.writeStep);
    const email = page.getByLabel(t.requesterEmail, { exact: true });
    const message = page.getByLabel(t.message, { exact: true });
    const tooLong = `Demo Studio, Park: ${"x".repeat(101 - "Demo Studio, Park: ".length)}`;
    expect(tooLong).toHaveLength(101);
    await email.fill("park@studio.example");
    // The browser stops typing at maxlength; a form that gets past it (an old browser, a script) meets the server's check.
    await message.evaluate((el) => el.removeAttribute("maxlength"));
    await message.fill(tooLong);
    await page.getByRole("button", { name: t.send, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/request");
    await expect(page.getByRole("alert").filter({ hasText: t.tooLong })).toHaveText(t.tooLong);
    await expect(message).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveValue("park@studio.example");
    await expect(message).toHaveValue(tooLong);

    await message.fill("Demo Studio, Park");
    await page.getByRole("button", { name: t.send, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/requestComp");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.sent);
    await expect(currentStep(page)).toContainText(t.doneStep);
    const requestNo = ((await definition(page, t.requestNumber).textContent()) ?? "").trim();
    expect(requestNo).toMatch(REQUEST_NO);
    const quote = page.getByRole("link", { name: t.openQuote });
    await expect(quote).toHaveAttribute("target", "_blank");
    const href = (await quote.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/mypage\/estimate\?token=[\w-]+$/);
    await page.goto(href);
    await expect(page.getByRole("heading", { level: 1, name: t.quote })).toBeVisible();
    await expect(page.getByText(requestNo)).toBeVisible();
    // (axe-core needs scripts: the same pages are checked with JavaScript below.)
  });
});

for (const lang of ["ko", "en"] as const) {
  test(`the purchase request pages and the webview's request tab in ${lang} pass axe-core`, async ({
    page,
    browser,
    request,
    consoleErrors,
  }) => {
    const t = T[lang];
    const [item] = await paidItems(request, "audio", lang === "ko" ? 14 : 16, 1);
    await openIn(page, "/cart", lang);
    await addByRequest(page, [item]);
    await page.goto("/cart");
    if (lang === "en") {
      await expectAccessible(page);
      await shot(page, "cart-visitor-en");
    }
    await hydrated(page);
    await page.getByRole("checkbox", { name: t.select(await cartTitle(page, item)), exact: true }).check();
    await page.getByRole("button", { name: t.requestPurchase, exact: true }).click();

    await expect(page).toHaveURL((url) => url.pathname === "/pay-key");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.requestTitle);
    await expectAccessible(page);
    await shot(page, `pay-key-${lang}`);
    await lookUp(page, lang, KEY.serial, KEY.email);

    await expect(page).toHaveURL((url) => url.pathname === "/request");
    await expect(page.getByRole("note").filter({ hasText: KEY.serial })).toBeVisible();
    await expectAccessible(page);
    await shot(page, `request-${lang}`);
    await page.getByLabel(t.requesterEmail, { exact: true }).fill("choi@studio.example");
    await page.getByLabel(t.message, { exact: true }).fill(lang === "ko" ? "데모 스튜디오 최편집" : "Demo Studio, Choi");
    await page.getByRole("button", { name: t.send, exact: true }).click();

    await expect(page).toHaveURL((url) => url.pathname === "/requestComp");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.sent);
    // The deadline in the page's language (Korean times say 오전/오후, not AM/PM) and its zone (issue 26.6).
    await expect(definition(page, t.payableUntil)).toHaveText(
      lang === "ko" ? /^\d{4}년 \d+월 \d+일 (오전|오후) \d.* \(한국 시간\)$/ : /\d{4} at \d.* (AM|PM) \(KST\)$/,
    );
    await expectAccessible(page);
    await shot(page, `requestComp-${lang}`);

    // The webview's tab, with an item in its cart.
    const editor = await editorWebview(browser, consoleErrors);
    await openIn(editor.page, "/mypage/sw/request", lang);
    await addByRequest(editor.page, [item]);
    await editor.page.reload();
    await expect(editor.page.getByRole("heading", { level: 1 })).toHaveText(t.requestTitle);
    await expect(editor.page.getByRole("checkbox")).toHaveCount(1);
    await expectAccessible(editor.page);
    if (lang === "en") await shot(editor.page, "sw-request-en");
    await editor.context.close();
  });
}
