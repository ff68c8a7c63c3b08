import { expect, test } from "@playwright/test";
import { BUSINESS_KEY, backBeforeHydration, type Entry, firstDetail, settled, T, visit, WEBVIEW, walkHistory, walkIn } from "./navigation";

/**
 * Back, Forward and reload through the business purchase request (to /requestComp, its quote, a reload and a Back
 * before hydration) and the editor's webview, in both languages (issue 24, point 6). The walk and its checks are in
 * navigation.ts.
 */
test.describe.configure({ timeout: 180_000 });

for (const lang of ["ko", "en"] as const) {
  test(`the purchase request in ${lang}: /requestComp, its quote, reload and Back`, async ({ browser, request }) => {
    const t = T[lang];
    const res = await request.get(`/api/v1/contents?space=audio&limit=40`);
    const body = (await res.json()) as { data: { list: { code: string; price_type: string; discontinued: boolean }[] } };
    const item = body.data.list.filter((c) => c.price_type === "paid" && !c.discontinued)[lang === "ko" ? 18 : 19];
    expect(item, "a paid audio item").toBeDefined();
    await walkIn(browser, {}, async (page) => {
      await page.goto(`/cart?language=${lang}`);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      expect((await page.request.post("/cart", { form: { intent: "add", code: item.code, redirectTo: "/cart" } })).ok()).toBe(true);
      const cart = await visit(page, lang, "/cart");
      await page.locator(".cart-line").getByRole("checkbox").first().check();
      await page.getByRole("button", { name: t.requestPurchase, exact: true }).click();
      await expect(page).toHaveURL((u) => u.pathname === "/pay-key");
      await settled(page, lang);
      const payKey = { url: "/pay-key", title: await page.title() };
      await page.getByRole("textbox", { name: t.serial, exact: true }).fill(BUSINESS_KEY.serial);
      await page.getByLabel(t.licenseEmail, { exact: true }).fill(BUSINESS_KEY.email);
      await page.getByRole("button", { name: t.lookUp, exact: true }).click();
      await expect(page).toHaveURL((u) => u.pathname === "/request");
      await settled(page, lang);
      await page.getByLabel(t.requesterEmail, { exact: true }).fill("navigation@studio.example");
      await page.getByLabel(t.message, { exact: true }).fill("Demo Studio, history");
      await page.getByRole("button", { name: t.send, exact: true }).click();
      await expect(page).toHaveURL((u) => u.pathname === "/requestComp");
      await settled(page, lang);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.sent);
      const done = { url: "/requestComp", title: await page.title() };

      // The quote opens in a window of its own.
      const [quote] = await Promise.all([page.waitForEvent("popup"), page.locator(".pay-actions a[target=_blank]").click()]);
      await expect(quote).toHaveURL(/\/mypage\/estimate\?token=[\w-]+$/);
      await settled(quote, lang);
      await expect(quote.getByRole("heading", { level: 1, name: t.quote })).toBeVisible();
      await quote.close();

      // Reload /requestComp and press Back before it hydrates: /request (sent already) leads back to /requestComp.
      await backBeforeHydration(page, lang, done);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.sent);
      // That entry now holds a document of its own: Back loads the key lookup and the cart again, Forward returns.
      await page.goBack();
      await settled(page, lang, payKey);
      await page.goBack();
      await settled(page, lang, cart);
      await page.reload();
      await settled(page, lang, cart);
      for (const entry of [payKey, done, done]) {
        await page.goForward();
        await settled(page, lang, entry);
      }
    });
  });

  test(`the editor's webview pages in ${lang}: Back, Forward and reload`, async ({ browser }) => {
    await walkIn(
      browser,
      { extraHTTPHeaders: { license_id: WEBVIEW.licence, hw_info: WEBVIEW.hwInfo }, viewport: { width: 800, height: 600 } },
      async (page) => {
        await page.goto(`/mypage/sw/home?language=${lang}`);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        const entries: Entry[] = [];
        for (const path of ["/mypage/sw/home", "/mypage/sw/pay"]) entries.push(await visit(page, lang, path));
        const order = await firstDetail(page, "/mypage/sw/pay/");
        if (order) entries.push(await visit(page, lang, order));
        for (const path of ["/mypage/sw/download", "/mypage/sw/download/start?none=1", "/mypage/sw/benefit", "/mypage/sw/request"])
          entries.push(await visit(page, lang, path));
        await walkHistory(page, lang, entries);
      },
    );
  });
}
