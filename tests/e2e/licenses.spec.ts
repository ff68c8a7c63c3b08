import type { Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/** The demo member owns VEDT-IND-0001-DEMO and VEDT-IND-0002-DEMO (app/db/seed/index.server.ts). */
async function signInDemo(page: Page, lang: "en" | "ko") {
  await openIn(page, "/login?redirectTo=%2Fmypage%2Flicenses", lang);
  await page.getByLabel(lang === "en" ? "E-mail" : "이메일", { exact: true }).fill("member@example.com");
  await page.getByLabel(lang === "en" ? "Password" : "비밀번호", { exact: true }).fill("market1234!");
  await page.getByRole("button", { name: lang === "en" ? "Sign in" : "로그인", exact: true }).click();
  await expect(page).toHaveURL(/\/mypage\/licenses$/);
}

const keys = (page: Page) => page.locator(".license-row .license-facts dd:first-of-type").allTextContents();

test("reorders licences by dragging a row and by the keyboard, and keeps the order", async ({ page }) => {
  await signInDemo(page, "en");
  await expectAccessible(page);
  const before = await keys(page);
  expect(before).toHaveLength(2);
  const rows = page.locator(".license-row");
  const handle = await rows.nth(1).locator(".drag-handle").boundingBox();
  const target = await rows.nth(0).boundingBox();
  if (!handle || !target) throw new Error("rows not laid out");
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + 30, target.y + 5, { steps: 15 });
  await page.mouse.up();
  await expect(page.getByText("The order has been saved.")).toBeVisible();
  await expect.poll(() => keys(page)).toEqual([before[1], before[0]]);
  await page.reload();
  await expect.poll(() => keys(page)).toEqual([before[1], before[0]]);

  // Keyboard: focus the first row's "Move down" and press Enter.
  await page
    .getByRole("button", { name: /Move .* down$/ })
    .first()
    .focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => keys(page)).toEqual(before);
});

test("uploads nicknames from a CSV sheet with a message per row", async ({ page }) => {
  await signInDemo(page, "en");
  const csv = "product key,nickname\nVEDT-IND-0002-DEMO,Laptop\nVEDT-XXX-0000-DEMO,Nope\n";
  await page
    .getByLabel("Spreadsheet", { exact: true })
    .setInputFiles({ name: "aliases.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("1 of 2 rows saved.")).toBeVisible();
  await expect(page.getByText("Row 1 (VEDT-IND-0002-DEMO): saved.")).toBeVisible();
  await expect(page.getByText("Row 2 (VEDT-XXX-0000-DEMO): no licence with this product key on your account.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Nickname of VEDT-IND-0002-DEMO")).toHaveValue("Laptop");
});

test("the licences page in Korean passes axe-core and searches by keyword", async ({ page }) => {
  await signInDemo(page, "ko");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("라이선스 관리");
  await expectAccessible(page);
  await page.getByLabel("검색어").fill("STUDIO");
  await page.getByRole("button", { name: "검색", exact: true }).last().click();
  await expect.poll(() => keys(page)).toEqual(["VEDT-IND-0001-DEMO"]);
});
