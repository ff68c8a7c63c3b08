import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

type Lang = "en" | "ko";

/**
 * The representative reads the purchase request list (issue 24, point 7) at 1280 and 390 px in both languages: no
 * sideways scroll (page or table), each row's date, contents, quantity, total and status on screen, the counts
 * saying what they count, and "Pay selected" over two currencies naming the requests of each, with and without
 * JavaScript; axe-core on each. Two requests of the demo's second key are added once (one in won, one in dollars,
 * through the API as key-only users send them); nothing is paid.
 */
const KEY = { serial: "VEDT-B2B-0002-DEMO", email: "editor2@studio.example" };
const T = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    headerCount: /^\d+ requests? to pay$/,
    listCount: /^\d+ purchase requests? in all$/,
    waitingCount: /^\d+ to pay \(waiting for payment\)$/,
    select: (no: string) => `Select ${no}`,
    paySelected: "Pay selected",
    mixed:
      "The selected requests are in different currencies, and one payment is made in one currency. Pay them in separate payments, one for each currency:",
    krw: (no: string) => `Requests in KRW: ${no}`,
    usd: (no: string) => `Requests in USD: ${no}`,
    payKrw: "Pay the 1 request in KRW",
    payUsd: "Pay the 1 request in USD",
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    headerCount: /^결제할 요청 \d+건$/,
    listCount: /^전체 구매 요청 \d+건$/,
    waitingCount: /^결제할 요청\(결제 대기\) \d+건$/,
    select: (no: string) => `${no} 선택`,
    paySelected: "선택 결제",
    mixed: "선택한 요청의 통화가 서로 다릅니다. 한 번의 결제는 한 가지 통화로만 할 수 있으니 통화별로 나누어 결제해 주세요.",
    krw: (no: string) => `KRW 요청: ${no}`,
    usd: (no: string) => `USD 요청: ${no}`,
    payKrw: "KRW 요청 1건 결제",
    payUsd: "USD 요청 1건 결제",
  },
} as const;

let made: { krw: string; usd: string } | null = null;
/** One request in won (a Korean requester) and one in dollars (an English one) for the same key, made once. */
async function mixedRequests(request: APIRequestContext) {
  if (made) return made;
  const res = await request.get("/api/v1/contents?space=audio&limit=40");
  const list = ((await res.json()) as { data: { list: { code: string; price_type: string; discontinued: boolean }[] } }).data.list;
  const codes = list.filter((c) => c.price_type === "paid" && !c.discontinued).map((c) => c.code);
  const send = async (language: Lang, code: string) => {
    const answer = await request.post("/api/v1/requests", {
      headers: { language },
      data: {
        message: "Studio, Park: list check",
        request_email: "park@studio.example",
        license_id: KEY.serial,
        license_email: KEY.email,
        item_list: [code],
      },
    });
    expect(answer.ok()).toBe(true);
    return ((await answer.json()) as { data: { request_no: string } }).data.request_no;
  };
  made = { krw: await send("ko", codes.at(-1) as string), usd: await send("en", codes.at(-2) as string) };
  return made;
}

async function signInRepresentative(page: Page, lang: Lang) {
  const t = T[lang];
  await openIn(page, "/login?redirectTo=%2Fmypage%2Fpurchase", lang);
  await page.getByLabel(t.email, { exact: true }).fill("business@example.com");
  await page.getByLabel(t.password, { exact: true }).fill("market1234!");
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/mypage/purchase");
}

/** Neither the page nor the list's own box scrolls sideways, and every row's five facts lie inside the viewport. */
async function expectReadable(page: Page) {
  const layout = await page.evaluate(() => {
    const doc = document.scrollingElement as Element;
    const wrap = document.querySelector(".request-list-wrap") as HTMLElement;
    const width = document.documentElement.clientWidth;
    const cells = [...document.querySelectorAll(".request-list tbody tr")].flatMap((tr) =>
      [".cell-date", ".cell-contents", ".cell-quantity", ".cell-total", ".cell-status"].map((c) => {
        const td = tr.querySelector(c) as HTMLElement;
        const r = td.getBoundingClientRect();
        return { c, text: (td.textContent ?? "").trim(), inside: r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= width + 0.5 };
      }),
    );
    return { doc: [doc.scrollWidth, doc.clientWidth], wrap: [wrap.scrollWidth, wrap.clientWidth], cells };
  });
  expect(layout.doc[0], "the page scrolls sideways").toBeLessThanOrEqual(layout.doc[1]);
  expect(layout.wrap[0], "the list scrolls sideways").toBeLessThanOrEqual(layout.wrap[1]);
  expect(layout.cells.length).toBeGreaterThanOrEqual(5 * 5);
  expect(layout.cells.filter((c) => !c.inside || !c.text)).toEqual([]);
}

for (const lang of ["en", "ko"] as const)
  for (const width of [1280, 390]) {
    test(`the representative reads the request list at ${width} px in ${lang}, and Pay selected over two currencies says what to do`, async ({
      page,
      request,
    }, testInfo) => {
      // Two axe-core runs, two screenshots and a sign-in: more than the default 30 s on a busy machine.
      test.setTimeout(90_000);
      const t = T[lang];
      const numbers = await mixedRequests(request);
      await page.setViewportSize({ width, height: 900 });
      await signInRepresentative(page, lang);

      // The counts say what they count: the header's the requests to pay, the page's all of them.
      await expect(page.locator(".site-header").getByRole("link", { name: t.headerCount })).toBeVisible();
      await expect(page.getByTestId("request-list-count")).toHaveText(t.listCount);
      await expect(page.getByTestId("request-waiting-count")).toHaveText(t.waitingCount);
      const header = Number(((await page.getByTestId("request-count").textContent()) ?? "").replace(/\D/g, ""));
      expect(Number(((await page.getByTestId("request-waiting-count").textContent()) ?? "").replace(/\D/g, ""))).toBe(header);

      await expectReadable(page);
      const row = page.locator(".request-list tbody tr").filter({ hasText: numbers.usd });
      for (const cell of [".cell-date", ".cell-contents", ".cell-quantity", ".cell-total", ".cell-status"])
        await expect(row.locator(cell)).toBeVisible();
      await expect(row.locator(".cell-total")).toContainText("$");
      await expectAccessible(page);
      await page.screenshot({ path: testInfo.outputPath(`request-list-${lang}-${width}.png`), fullPage: true });

      // Two currencies chosen (the keyboard ticks one): the answer names the requests of each and offers each its payment.
      await page.getByRole("checkbox", { name: t.select(numbers.krw), exact: true }).check();
      await page.getByRole("checkbox", { name: t.select(numbers.usd), exact: true }).focus();
      await page.keyboard.press("Space");
      await expect(page.getByRole("checkbox", { name: t.select(numbers.usd), exact: true })).toBeChecked();
      await page.getByRole("button", { name: t.paySelected, exact: true }).click();
      const alert = page.getByRole("alert").filter({ hasText: t.mixed });
      await expect(alert).toBeVisible();
      await expect(alert.getByRole("listitem").filter({ hasText: t.krw(numbers.krw) })).toBeVisible();
      await expect(alert.getByRole("listitem").filter({ hasText: t.usd(numbers.usd) })).toBeVisible();
      await expect(page).toHaveURL((url) => url.pathname === "/mypage/purchase");
      await expectReadable(page);
      await expectAccessible(page);
      await page.screenshot({ path: testInfo.outputPath(`request-list-mixed-${lang}-${width}.png`), fullPage: true });
      // Paying one currency's requests starts that payment.
      await alert.getByRole("button", { name: lang === "en" ? t.payUsd : t.payKrw, exact: true }).click();
      await expect(page).toHaveURL((url) => url.pathname === "/pay01");
    });
  }

test("without JavaScript, Pay selected over two currencies answers the same from a plain form post", async ({ browser, request }) => {
  const numbers = await mixedRequests(request);
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  const t = T.en;
  await signInRepresentative(page, "en");
  await expectReadable(page);
  await page.getByRole("checkbox", { name: t.select(numbers.krw), exact: true }).check();
  await page.getByRole("checkbox", { name: t.select(numbers.usd), exact: true }).check();
  await page.getByRole("button", { name: t.paySelected, exact: true }).click();
  const alert = page.getByRole("alert").filter({ hasText: t.mixed });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole("listitem").filter({ hasText: t.krw(numbers.krw) })).toBeVisible();
  await expect(alert.getByRole("listitem").filter({ hasText: t.usd(numbers.usd) })).toBeVisible();
  // The choice is kept for the next try.
  await expect(page.getByRole("checkbox", { name: t.select(numbers.usd), exact: true })).toBeChecked();
  await alert.getByRole("button", { name: t.payKrw, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/pay01");
  await context.close();
});
