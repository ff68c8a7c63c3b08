import { readFile } from "node:fs/promises";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * The console's reports as the finance operator uses them, in both languages: a date range chosen in the form,
 * each page's chart (an image named by its caption) beside a table of the same days, the sub-pages, and a CSV
 * download (UTF-8 with a BOM, a header in the page's language, a row per day). Every page passes axe-core.
 */
const TEXT = {
  en: {
    from: "From",
    to: "To",
    apply: "Show",
    sales: "Sales",
    downloads: "Downloads",
    top: "Top items",
    refunds: "Refunds",
    dayChart: "Chart: net sales and sales per day in Korean won (KRW)",
    dayCaption: "Sales per day in Korean won (KRW)",
    csv: "Download CSV: Sales per day in Korean won (KRW)",
    csvDay: "Day",
    downloadsChart: "Chart: downloads per day, stacked by content type",
    refundsCaption: "Refunds per day in US dollars (USD)",
    topCaption: "Top items by sales in Korean won (KRW)",
    badOrder: "The first day must not come after the last day.",
  },
  ko: {
    from: "시작일",
    to: "종료일",
    apply: "조회",
    sales: "매출",
    downloads: "다운로드",
    top: "인기 상품",
    refunds: "환불",
    dayChart: "차트: 원화 (KRW) 일별 순매출과 매출",
    dayCaption: "원화 (KRW) 일별 매출",
    csv: "CSV 다운로드: 원화 (KRW) 일별 매출",
    csvDay: "날짜",
    downloadsChart: "차트: 일별 다운로드 수 (콘텐츠 유형별 누적)",
    refundsCaption: "미국 달러 (USD) 일별 환불",
    topCaption: "원화 (KRW) 매출 상위 상품",
    badOrder: "시작일은 종료일보다 늦을 수 없습니다.",
  },
} as const;

/** A Seoul calendar day `back` days before today. */
const seoulDay = (back: number) => new Date(Date.now() + 9 * 3_600_000 - back * 86_400_000).toISOString().slice(0, 10);

for (const lang of ["en", "ko"] as const) {
  const t = TEXT[lang];

  test(`reports in ${lang}: a date range, charts beside tables, CSV download, axe-core clean`, async ({ page }) => {
    test.setTimeout(120_000);
    await openIn(page, "/admin/login?next=/admin/reports", lang);
    await page.locator('input[name="email"]').fill("finance@example.com");
    await page.locator('input[name="password"]').fill("market1234!");
    await page.locator('form button[type="submit"]').click();
    await expect(page).toHaveURL(/\/admin\/reports$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.sales);

    // Two weeks chosen in the form: 14 days in every per-day table.
    const from = seoulDay(13);
    const to = seoulDay(0);
    const range = page.getByRole("form");
    await page.getByLabel(t.from, { exact: true }).fill(from);
    await page.getByLabel(t.to, { exact: true }).fill(to);
    await range.getByRole("button", { name: t.apply }).click();
    await expect(page).toHaveURL(new RegExp(`from=${from}&to=${to}`));
    await expect(page.getByRole("img", { name: t.dayChart })).toBeVisible();
    const table = page.getByRole("table", { name: t.dayCaption });
    await expect(table.locator("tbody tr")).toHaveCount(14);
    await expect(table.locator("tbody tr").first().getByRole("rowheader")).toHaveText(from);
    await expectAccessible(page);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: t.csv }).click()]);
    expect(download.suggestedFilename()).toBe(`report-sales-days-KRW-${from}-${to}.csv`);
    const bytes = await readFile(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
    expect(lines).toHaveLength(15);
    expect(lines[0].split(",")[0]).toBe(t.csvDay);
    expect(lines[1].split(",")[0]).toBe(from);

    // The other reports keep the range.
    const nav = page.getByRole("navigation", { name: t.sales === "Sales" ? "Reports" : "리포트" });
    await nav.getByRole("link", { name: t.downloads }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.downloads);
    await expect(page).toHaveURL(new RegExp(`/admin/reports/downloads\\?from=${from}&to=${to}`));
    await expect(page.getByRole("img", { name: t.downloadsChart })).toBeVisible();
    await expectAccessible(page);

    await nav.getByRole("link", { name: t.refunds }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.refunds);
    await expect(page.getByRole("table", { name: t.refundsCaption }).locator("tbody tr")).toHaveCount(14);
    await expectAccessible(page);

    await nav.getByRole("link", { name: t.top }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.top);
    await expectAccessible(page);

    // A reversed range (a document request: the page answers 400): it says why and keeps the dates typed.
    const bad = await page.goto(`/admin/reports/top?from=${to}&to=${from}`);
    expect(bad?.status()).toBe(400);
    await expect(page.getByRole("alert")).toHaveText(t.badOrder);
    await expect(page.getByLabel(t.from, { exact: true })).toHaveValue(to);
    await expectAccessible(page);
  });
}

test("reports work without JavaScript: the range form and the tables are plain HTML", async ({ browser }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/admin/login?next=/admin/reports&language=en");
  await page.locator('input[name="email"]').fill("finance@example.com");
  await page.locator('input[name="password"]').fill("market1234!");
  await page.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL(/\/admin\/reports$/);
  await expect(page.getByRole("table", { name: TEXT.en.dayCaption }).locator("tbody tr")).toHaveCount(30);
  await page.getByLabel("From", { exact: true }).fill(seoulDay(6));
  await page.getByRole("form").getByRole("button", { name: "Show" }).click();
  await expect(page.getByRole("table", { name: TEXT.en.dayCaption }).locator("tbody tr")).toHaveCount(7);
  await expect(page.getByRole("img", { name: TEXT.en.dayChart })).toBeVisible();
  // A reversed range through the form: 400, the reason, the dates kept.
  await page.getByLabel("From", { exact: true }).fill(seoulDay(0));
  await page.getByLabel("To", { exact: true }).fill(seoulDay(3));
  await page.getByRole("form").getByRole("button", { name: "Show" }).click();
  await expect(page.getByRole("alert")).toHaveText(TEXT.en.badOrder);
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(seoulDay(3));
  await context.close();
});
