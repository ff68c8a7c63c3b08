import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * Issue 24, points 3 and 4 in a browser, in both languages, with axe: Buy now (JavaScript on and off) checks out
 * that one item; Delete selected is confirmed; the "Already yours" notice of the cart and the payment steps.
 */
type Lang = "en" | "ko";
const DEMO = { email: "member@example.com", password: "market1234!", licence: "VEDT-IND-0001-DEMO" };
const T = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    buyNow: "Buy now",
    deleteSelected: "Delete selected",
    already: "Already yours",
    select: (title: string) => `Select ${title}`,
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    buyNow: "바로 구매",
    deleteSelected: "선택 삭제",
    already: "이미 보유한 상품",
    select: (title: string) => `${title} 선택`,
  },
};

/** Writes to the e2e store's database (a settled purchase, a clean cart): no page can make them quickly. */
function run(sql: string, ...params: unknown[]) {
  const db = new Database(path.resolve(process.env.E2E_DATA_DIR ?? ".cache/e2e", "market.sqlite"));
  try {
    db.pragma("busy_timeout = 5000");
    const statement = db.prepare(sql);
    return statement.reader ? statement.all(...params) : statement.run(...params);
  } finally {
    db.close();
  }
}

/** The demo member holds this item on the demo licence for 90 days (a paid order written in). */
function holdItem(code: string) {
  const [licence] = run("SELECT id, user_id FROM licenses WHERE serial = ?", DEMO.licence) as { id: number; user_id: number }[];
  const [content] = run("SELECT id, contents_type FROM contents WHERE code = ?", code) as { id: number; contents_type: string }[];
  const at = new Date().toISOString();
  const until = new Date(Date.now() + 90 * 86_400_000).toISOString();
  const orderNo = `MKT-E2E-${Math.random().toString(16).slice(2, 10).toUpperCase()}`;
  run(
    `INSERT INTO orders (order_no, user_id, license_id, purchase_category, status, method, currency, amount, vat, total,
      cancel_quantity, cancel_amount, gateway, ptime, created_at, order_name)
     VALUES (?, ?, ?, 'member', 'complete', 'card', 'KRW', 1000, 100, 1100, 0, 0, 'sandbox', ?, ?, 'E2E')`,
    orderNo,
    licence.user_id,
    licence.id,
    at,
    at,
  );
  const [order] = run("SELECT id FROM orders WHERE order_no = ?", orderNo) as { id: number }[];
  run(
    `INSERT INTO order_items (order_id, content_id, quantity, unit_price, vat, status, expires_at, item_type)
     VALUES (?, ?, 1, 1000, 100, 'active', ?, ?)`,
    order.id,
    content.id,
    until,
    content.contents_type,
  );
}

const clearCart = () => run("DELETE FROM carts WHERE user_id = (SELECT id FROM users WHERE email = ?)", DEMO.email);

type Item = { code: string; type: string; href: string };
async function paidItems(request: APIRequestContext, space: string, skip: number): Promise<Item[]> {
  const res = await request.get(`/api/v1/contents?space=${space}&limit=40`);
  const body = (await res.json()) as { data: { list: { code: string; type: string; price_type: string; discontinued: boolean }[] } };
  return body.data.list
    .filter((c) => c.price_type === "paid" && !c.discontinued)
    .slice(skip)
    .map((c) => ({ code: c.code, type: c.type, href: `/contents/${c.type}?code=${c.code}` }));
}

async function signIn(page: Page, lang: Lang, redirectTo = "/") {
  const t = T[lang];
  await openIn(page, `/login?redirectTo=${encodeURIComponent(redirectTo)}`, lang);
  await page.getByLabel(t.email, { exact: true }).fill(DEMO.email);
  await page.getByLabel(t.password, { exact: true }).fill(DEMO.password);
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === redirectTo);
}

const cartCount = (page: Page) => page.getByTestId("cart-count").first();
const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.documentElement).some((k) => k.startsWith("__reactProps$")));

test.describe.configure({ mode: "serial", timeout: 120_000 });

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    for (const lang of ["en", "ko"] as const) {
      test(`Buy now checks out that one item and leaves the cart (${lang})`, async ({ page, request }) => {
        clearCart();
        const [inCart, item] = await paidItems(request, "icon", js ? (lang === "en" ? 0 : 4) : lang === "en" ? 8 : 12);
        await signIn(page, lang, "/cart");
        expect((await page.request.post("/cart", { form: { intent: "add", code: inCart.code, redirectTo: "/cart" } })).ok()).toBe(true);
        await page.goto(item.href);
        if (js) await hydrated(page);
        await expect(cartCount(page)).toHaveText("1");
        const title = ((await page.getByRole("heading", { level: 1 }).textContent()) ?? "").trim();
        await page.getByRole("button", { name: T[lang].buyNow, exact: true }).click();
        await expect(page).toHaveURL((url) => url.pathname === "/pay01");
        await expect(page.locator(".pay-lines .cart-line")).toHaveCount(1);
        await expect(page.locator(".pay-lines")).toContainText(title);
        // axe runs inside the page, so only with JavaScript on.
        if (js) await expectAccessible(page);
        // The cart: still the one line it had.
        await expect(cartCount(page)).toHaveText("1");
        await page.goto("/cart");
        await expect(page.locator(".cart-lines .cart-line")).toHaveCount(1);
        await expect(page.locator(".cart-lines")).not.toContainText(title);
      });
    }
  });
}

test("Delete selected asks first, naming the lines, and deletes only those (en, ko)", async ({ page, request }) => {
  for (const lang of ["en", "ko"] as const) {
    clearCart();
    const items = await paidItems(request, "video", lang === "en" ? 0 : 3);
    // Signed in once; the second language is chosen on the cart itself.
    if (lang === "en") await signIn(page, lang, "/cart");
    else await openIn(page, "/cart", lang);
    for (const item of items.slice(0, 3))
      expect((await page.request.post("/cart", { form: { intent: "add", code: item.code, redirectTo: "/cart" } })).ok()).toBe(true);
    await page.goto("/cart");
    await hydrated(page);
    const titles = (await page.locator(".cart-lines .cart-line a").allTextContents()).map((s) => s.trim());
    // The shopper unticks the line they meant to delete: the confirmation shows the others would go.
    await page.getByRole("checkbox", { name: T[lang].select(titles[0]), exact: true }).uncheck();
    await page.getByRole("button", { name: T[lang].deleteSelected, exact: true }).click();
    const confirm = page.locator("form.cart-confirm");
    await expect(confirm.getByRole("heading")).toBeFocused();
    await expect(confirm.locator("li")).toHaveText([titles[1], titles[2]]);
    await expectAccessible(page);
    // "Keep them" deletes nothing.
    await confirm.getByRole("link").click();
    await expect(page.locator("form.cart-confirm")).toHaveCount(0);
    await expect(page.locator(".cart-lines .cart-line")).toHaveCount(3);
    await page.getByRole("checkbox", { name: T[lang].select(titles[1]), exact: true }).uncheck();
    await page.getByRole("checkbox", { name: T[lang].select(titles[2]), exact: true }).uncheck();
    await page.getByRole("checkbox", { name: T[lang].select(titles[0]), exact: true }).check();
    await page.getByRole("button", { name: T[lang].deleteSelected, exact: true }).click();
    await expect(page.locator("form.cart-confirm li")).toHaveText([titles[0]]);
    await page.locator("form.cart-confirm").getByRole("button").click();
    await expect(page.locator(".cart-lines .cart-line")).toHaveCount(2);
    await expect(page.locator(".cart-lines")).not.toContainText(titles[0]);
    await expect(cartCount(page)).toHaveText("2");
  }
});

test("the cart, /pay01 and /pay02 say what the licence already holds and drop it in one action (en, ko)", async ({ page, request }) => {
  const shots = process.env.E2E_OUTPUT ?? "test-results/cart";
  for (const lang of ["en", "ko"] as const) {
    clearCart();
    const [held, fresh] = await paidItems(request, "audio", lang === "en" ? 0 : 2);
    holdItem(held.code);
    if (lang === "en") await signIn(page, lang, "/cart");
    else await openIn(page, "/cart", lang);
    for (const item of [held, fresh])
      expect((await page.request.post("/cart", { form: { intent: "add", code: item.code, redirectTo: "/cart" } })).ok()).toBe(true);
    await page.goto("/cart");
    const notice = page.locator(".overlap-notice");
    await expect(notice.getByRole("heading", { name: T[lang].already })).toBeVisible();
    await expect(notice).toContainText(DEMO.licence);
    await expectAccessible(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${shots}/overlap-cart-${lang}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // Buy both: /pay01 says it again; the licence chosen on /pay02 holds one, so /pay02 says so and drops it.
    await hydrated(page);
    await page.locator(".cart-toolbar button[value=buy]").click();
    await expect(page).toHaveURL((url) => url.pathname === "/pay01");
    await expect(page.locator(".overlap-notice")).toBeVisible();
    await expectAccessible(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${shots}/overlap-pay01-${lang}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/pay02");
    await page.getByRole("radio", { name: new RegExp(DEMO.licence) }).check();
    await page.getByRole("button", { name: lang === "en" ? "Next" : "다음", exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/pay02");
    await expect(page.locator(".overlap-notice")).toContainText(DEMO.licence);
    await expectAccessible(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${shots}/overlap-pay02-${lang}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator(".overlap-notice button[value=drop]").click();
    await expect(page).toHaveURL((url) => url.pathname === "/pay03");
    await expect(page.locator(".pay-lines .cart-line")).toHaveCount(1);
    // In the cart, "Remove these" takes the held line out.
    await page.goto("/cart");
    await page.locator(".overlap-notice button[value=removeHeld]").click();
    await expect(page.locator(".overlap-notice")).toHaveCount(0);
    await expect(page.locator(".cart-lines .cart-line")).toHaveCount(1);
  }
});
