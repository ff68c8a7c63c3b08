import { expect, expectAccessible, test } from "./fixtures";

/**
 * The console's door: an operator signs in with JavaScript on and lands on the console home (its data is fetched at
 * /admin.data, which the session cookie must reach), sees only their role's sections, and signs out; the pages pass
 * axe-core in both languages.
 */
test("an administrator signs in to the console home, sees every section, the operators and the audit log, and signs out", async ({
  page,
}) => {
  await page.goto("/admin/login?language=en");
  await expect(page).toHaveURL((url) => url.pathname === "/admin/login" && !url.searchParams.has("language"));
  await expectAccessible(page);
  await page.getByLabel("E-mail").fill("operator@example.com");
  await page.getByLabel("Password").fill("wrong-password-1!");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("The e-mail or password is wrong.");
  await expect(page.getByLabel("E-mail")).toHaveValue("operator@example.com");
  await page.getByLabel("Password").fill("market1234!");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/admin");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
  const nav = page.getByRole("navigation", { name: "Console sections" });
  for (const name of [
    "Inquiries",
    "Members",
    "Catalog",
    "Publishing",
    "Orders",
    "Coupon",
    "Reports",
    "Service modes",
    "Operators",
    "Audit log",
  ])
    await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  await expectAccessible(page);

  await nav.getByRole("link", { name: "Operators", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Operators");
  await expect(page.getByRole("cell", { name: "support@example.com", exact: true })).toBeVisible();
  await expectAccessible(page);
  await nav.getByRole("link", { name: "Audit log", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Audit log");
  await expect(page.getByRole("cell", { name: "operator.sign_in" }).first()).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "한국어" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ko");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("감사 로그");
  await expectAccessible(page);
  await page.getByRole("button", { name: "로그아웃" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/admin/login");
  await page.goto("/admin");
  await expect(page).toHaveURL((url) => url.pathname === "/admin/login");
});

test("a support operator sees only support's sections and is refused another's page", async ({ page }) => {
  await page.goto("/admin/login?language=ko");
  await expect(page).toHaveURL((url) => !url.searchParams.has("language"));
  await page.getByLabel("이메일").fill("support@example.com");
  await page.getByLabel("비밀번호").fill("market1234!");
  await page.getByRole("button", { name: "로그인" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/admin");
  const nav = page.getByRole("navigation", { name: "콘솔 메뉴" });
  await expect(nav.getByRole("link")).toHaveText(["개요", "1:1 문의", "회원"]);
  await expectAccessible(page);
  await page.goto("/admin/orders");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("권한 없음");
  await expect(page.getByRole("alert")).toContainText("이 메뉴는 현재 역할로 열 수 없습니다.");
  await expectAccessible(page);
});
