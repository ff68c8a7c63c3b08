import type { Browser, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * Catalog pages shared by members (app/utils/shared-pages.server.ts): two members open the same pages in their own
 * browsers; the second gets them from the page cache with their own nickname, React takes the page over without a
 * hydration error (the fixture fails on any console error), and moving to another page in the browser (Remix's data
 * request, shared the same way) keeps each member's own header.
 */

const PASSWORD = "market1234!";
const HELLO = { en: (n: string) => `Hello, ${n}`, ko: (n: string) => `${n}님, 안녕하세요` };

/** A new member (joined through the form's action in a browser context of its own), signed in. */
async function memberPage(browser: Browser, baseURL: string, nickname: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = `shared-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@example.com`;
  const res = await context.request.post("/join", { form: { email, nickname, password: PASSWORD, agreeTerms: "on" } });
  expect(res.ok()).toBe(true);
  return page;
}

for (const lang of ["en", "ko"] as const) {
  test(`two members share catalog pages, each with their own name, in ${lang}`, async ({ browser, baseURL }) => {
    const suffix = Math.floor(Math.random() * 1e6).toString(36);
    const first = await memberPage(browser, baseURL as string, `하나 ${suffix}`);
    const second = await memberPage(browser, baseURL as string, `Bob ${suffix}`);
    const header = (page: Page) => page.locator("header.site-header");
    const hello = lang === "en" ? HELLO.en : HELLO.ko;
    await openIn(first, "/video", lang);
    await expect(header(first).getByRole("link", { name: hello(`하나 ${suffix}`) })).toBeVisible();
    await openIn(second, "/video", lang);

    // Each worker of the server keeps its own cache: ask until the one that holds the page answers from it.
    let cache: string | null = null;
    for (let i = 0; i < 8 && cache !== "HIT"; i++) {
      const response = await second.goto("/video");
      cache = response?.headers()["x-cache"] ?? null;
    }
    expect(cache).toBe("HIT");
    await expect(header(second).getByRole("link", { name: hello(`Bob ${suffix}`) })).toBeVisible();
    await expect(second.getByText(`하나 ${suffix}`)).toHaveCount(0);
    await expectAccessible(second);

    // In the browser: a card's item page through Remix's data request, then back to the landing.
    await second.locator(".card-link").first().click();
    await expect(second).toHaveURL(/\/contents\/video\?code=/);
    await expect(second.locator("h1")).toBeVisible();
    await expect(header(second).getByRole("link", { name: hello(`Bob ${suffix}`) })).toBeVisible();
    await second.goBack();
    await expect(second).toHaveURL(/\/video$/);
    await expect(header(second).getByRole("link", { name: hello(`Bob ${suffix}`) })).toBeVisible();
    await expect(header(first).getByRole("link", { name: hello(`하나 ${suffix}`) })).toBeVisible();
    await first.context().close();
    await second.context().close();
  });
}
