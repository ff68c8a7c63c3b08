import type { APIRequestContext, Browser, BrowserContextOptions, Page } from "@playwright/test";
import { expect, test } from "@playwright/test";

/**
 * Back, Forward and reload through the storefront's pages, My page, the business purchase request (through
 * /requestComp and its quote) and the editor's webview, in both languages (issue 24, point 6). Every page a step
 * lands on must hydrate without a React hydration error (#418, #423, #425, "Hydration failed", "did not match"),
 * log no console error and no page error, and never be the service-error page.
 *
 * Two kinds of history are walked. Pages opened one after the other as documents (page.goto) give entries of other
 * documents: Back and Forward load them again (Playwright turns the back/forward cache off, so each is hydrated).
 * Pages reached by links give entries of one document; after a reload they stay entries of the reloaded document,
 * and a Back pressed before that document has hydrated changes only the address (the "Service error"):
 * `backBeforeHydration` holds the browser entry's script until the Back is done, so that case is tested every run,
 * not when the machine happens to be slow.
 *
 * A step is done when React has hydrated the page (its props on <html>), no navigation is under way (the progress
 * bar is idle) and the page's title is the one it had when first visited: deterministic for document loads and
 * client-side ones alike, with no fixed waits.
 */
type Lang = "en" | "ko";

const SERVICE_ERROR = { en: "Service error", ko: "서비스 오류" } as const;
const MEMBER = { email: "member@example.com", password: "market1234!" };
const REPRESENTATIVE = { email: "business@example.com", password: "market1234!" };
const WEBVIEW = { licence: "VEDT-IND-0001-DEMO", hwInfo: "HW-DEMO-IND-0001" };
// The second demo business key, as business.spec.ts uses: the first key's seeded requests belong to purchase.spec.ts.
const BUSINESS_KEY = { serial: "VEDT-B2B-0002-DEMO", email: "editor2@studio.example" };

const T = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    requestPurchase: "Request purchase",
    serial: "Licence key",
    licenseEmail: "Licensing e-mail",
    lookUp: "Look up",
    requesterEmail: "Your e-mail (required)",
    message: "Message (required)",
    send: "Send the request",
    sent: "Purchase request sent",
    quote: "Quotation",
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    requestPurchase: "구매 요청",
    serial: "라이선스 키",
    licenseEmail: "라이선스 이메일",
    lookUp: "조회",
    requesterEmail: "요청자 이메일 (필수)",
    message: "메시지 (필수)",
    send: "구매 요청 보내기",
    sent: "구매 요청 완료",
    quote: "견적서",
  },
} as const;

const HYDRATION = /Minified React error #(418|423|425)\b|Hydration failed|did not match|error while hydrating|server-rendered HTML/i;

/** Console errors, any console line about hydration, and page errors (React reports hydration errors as such). */
function watch(page: Page, problems: string[]) {
  page.on("console", (m) => {
    const text = m.text();
    if (m.type() === "error" || HYDRATION.test(text)) problems.push(`console ${m.type()} at ${page.url()}: ${text}`);
  });
  page.on("pageerror", (e) => problems.push(`page error at ${page.url()}: ${e.message}`));
  return page;
}

/** A browser context whose pages (pop-ups too) are watched; fails the test on anything they logged. */
async function walkIn(browser: Browser, options: BrowserContextOptions, run: (page: Page) => Promise<void>) {
  const context = await browser.newContext(options);
  const problems: string[] = [];
  context.on("page", (p) => watch(p, problems));
  try {
    await run(await context.newPage());
  } catch (error) {
    // What the pages logged says why a step failed (a hydration error before the service-error page, say).
    if (error instanceof Error && problems.length) error.message += `\n\nLogged by the pages:\n${problems.join("\n")}`;
    throw error;
  } finally {
    await context.close();
  }
  expect(problems, "console errors, page errors and hydration errors").toEqual([]);
}

/** React has hydrated the document (its props sit on <html> once the root is hydrated). */
const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.documentElement).some((k) => k.startsWith("__reactProps$")));

interface Entry {
  /** Path and query. */
  url: string;
  title: string;
}

const addressOf = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

/** The page is hydrated and idle (and, when given, the entry expected), and it is not the service-error page. */
async function settled(page: Page, lang: Lang, expected?: Entry) {
  if (expected) await expect(page).toHaveURL((u) => u.pathname + u.search === expected.url);
  await hydrated(page);
  await expect(page.locator(".nav-progress")).not.toHaveClass(/is-busy/);
  if (expected) await expect(page).toHaveTitle(expected.title);
  await expect(page.getByRole("heading", { name: SERVICE_ERROR[lang], exact: true })).toHaveCount(0);
}

/** Opens a page as a document: an entry the walk comes back to. */
async function visit(page: Page, lang: Lang, path: string): Promise<Entry> {
  await page.goto(path);
  await settled(page, lang);
  return { url: addressOf(page), title: await page.title() };
}

/** The page reached by following a link (a client-side navigation): an entry of the current document. */
async function follow(page: Page, lang: Lang, link: ReturnType<Page["locator"]>, path: string): Promise<Entry> {
  await link.click();
  await expect(page).toHaveURL((u) => u.pathname + u.search === path);
  await settled(page, lang);
  return { url: addressOf(page), title: await page.title() };
}

/**
 * Back through every entry to the first, a reload there, then Forward a few steps (each a document load like the Back
 * ones; every page has then been hydrated at least twice): each step checked. Keeps the spec to minutes.
 */
async function walkHistory(page: Page, lang: Lang, entries: Entry[], forward = Math.min(entries.length - 1, 5)) {
  for (let i = entries.length - 2; i >= 0; i--) {
    await page.goBack();
    await settled(page, lang, entries[i]);
  }
  await page.reload();
  await settled(page, lang, entries[0]);
  for (let i = 1; i <= forward; i++) {
    await page.goForward();
    await settled(page, lang, entries[i]);
  }
}

/**
 * A reload, then Back before the reloaded document has hydrated: the browser entry's script is held until the
 * Back is done. The page must end as `expected` (the entry's own page, or where its loader sends it), hydrated.
 */
async function backBeforeHydration(page: Page, lang: Lang, expected: Entry) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pattern = "**/build/entry.client-*.js";
  let handled: Promise<void> = Promise.resolve();
  await page.route(pattern, (route) => {
    handled = held.then(() => route.continue());
    return handled;
  });
  await page.reload({ waitUntil: "commit" });
  // The reloaded document is there (its footer parsed) and not hydrated: its script is held.
  await page.locator("footer").first().waitFor({ state: "attached" });
  await page.goBack({ waitUntil: "commit" });
  release();
  await handled;
  await page.unroute(pattern);
  await settled(page, lang, expected);
}

/** One item page of each type: video, icon, audio, font and package. */
async function itemPages(request: APIRequestContext) {
  const pages: string[] = [];
  for (const space of ["video", "icon", "audio", "font", "package"]) {
    const res = await request.get(`/api/v1/contents?space=${space}&limit=5`);
    expect(res.ok(), `items of ${space}`).toBe(true);
    const body = (await res.json()) as { data: { list: { code: string; type: string; discontinued: boolean }[] } };
    const item = body.data.list.find((c) => !c.discontinued);
    expect(item, `an item of ${space}`).toBeDefined();
    if (item) pages.push(`/contents/${item.type}?code=${item.code}`);
  }
  return pages;
}

async function signIn(page: Page, lang: Lang, who: { email: string; password: string }) {
  const t = T[lang];
  await page.goto(`/login?redirectTo=%2Fmypage%2Fhome&language=${lang}`);
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
  await hydrated(page);
  await page.getByLabel(t.email, { exact: true }).fill(who.email);
  await page.getByLabel(t.password, { exact: true }).fill(who.password);
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === "/mypage/home");
}

/** The first link on the page whose address starts with `prefix` followed by a number, or null. */
async function firstDetail(page: Page, prefix: string): Promise<string | null> {
  const hrefs = await page.locator(`a[href^="${prefix}"]`).evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.find((h) => new RegExp(`^${prefix}\\d+$`).test(h)) ?? null;
}

test.describe.configure({ timeout: 180_000 });

for (const lang of ["ko", "en"] as const) {
  test(`storefront pages in ${lang}: Back, Forward and reload hydrate every page`, async ({ browser, request }) => {
    const paths = [
      "/",
      "/video",
      "/icon",
      "/audio",
      "/package",
      "/benefit",
      "/font",
      "/list/video/all",
      ...(await itemPages(request)),
      "/search/all?keywords=ocean",
      "/price",
      "/price/audio-bgm",
      "/support",
      "/cart",
      "/notice",
      "/notice/1",
      "/event",
      "/event/1",
      "/policy",
      "/modules",
      "/login",
      "/join",
    ];
    await walkIn(browser, {}, async (page) => {
      await page.goto(`/?language=${lang}`);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const entries: Entry[] = [];
      for (const path of paths) entries.push(await visit(page, lang, path));
      await walkHistory(page, lang, entries);

      // Entries of one document (links followed), a reload, Back before hydration, then Forward.
      const nav = page.locator(".site-header");
      const linked = [await visit(page, lang, "/")];
      for (const path of ["/video", "/audio", "/font"])
        linked.push(await follow(page, lang, nav.locator(`a[href="${path}"]`).first(), path));
      await page.reload();
      await settled(page, lang, linked[3]);
      await page.goBack();
      await settled(page, lang, linked[2]);
      await page.goForward();
      await settled(page, lang, linked[3]);
      await backBeforeHydration(page, lang, linked[2]);
      await page.goForward();
      await settled(page, lang, linked[3]);
      await page.goBack();
      await settled(page, lang, linked[2]);
    });
  });

  test(`My page in ${lang} as the demo member and the representative: Back, Forward and reload`, async ({ browser }) => {
    await walkIn(browser, {}, async (page) => {
      await signIn(page, lang, MEMBER);
      const entries: Entry[] = [];
      // Catalog pages a member shares with others (the nickname filled into the cached page), then My page.
      for (const path of ["/", "/audio", "/mypage/home", "/mypage/member", "/mypage/licenses", "/mypage/pay", "/mypage/passes"])
        entries.push(await visit(page, lang, path));
      // An order or an inquiry of the member's, when earlier specs left one (the seed has none).
      const order = await firstDetail(page, "/mypage/pay/");
      if (order) entries.push(await visit(page, lang, order));
      for (const path of ["/mypage/download", "/mypage/interest", "/mypage/qna"]) entries.push(await visit(page, lang, path));
      const inquiry = await firstDetail(page, "/mypage/qna/");
      if (inquiry) entries.push(await visit(page, lang, inquiry));
      entries.push(await visit(page, lang, "/mypage/withdraw"));
      await walkHistory(page, lang, entries);
    });
    await walkIn(browser, {}, async (page) => {
      await signIn(page, lang, REPRESENTATIVE);
      const entries: Entry[] = [];
      // The seed's paid request (2) and its order; the quote of the waiting request (1) by the representative's id.
      for (const path of ["/mypage/home", "/mypage/purchase", "/mypage/purchase/2", "/mypage/estimate?id=1", "/mypage/pay"])
        entries.push(await visit(page, lang, path));
      const order = await firstDetail(page, "/mypage/pay/");
      expect(order, "the representative's seeded order").not.toBeNull();
      if (order) entries.push(await visit(page, lang, order));
      await walkHistory(page, lang, entries);
    });
  });

  test(`the purchase request in ${lang}: /requestComp, its quote, reload and Back`, async ({ browser, request }) => {
    const t = T[lang];
    const res = await request.get(`/api/v1/contents?space=audio&limit=40`);
    const body = (await res.json()) as { data: { list: { code: string; priceType: string; discontinued: boolean }[] } };
    const item = body.data.list.filter((c) => c.priceType === "paid" && !c.discontinued)[lang === "ko" ? 18 : 19];
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
