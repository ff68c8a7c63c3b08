import type { Browser, BrowserContextOptions, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";
import { BUSINESS_KEY, hydrated, itemPages, MEMBER, REPRESENTATIVE, T, WEBVIEW } from "./navigation";
import { type PageRoute, pageRoutes } from "./routes";

/**
 * Issue 26, point 3: nothing scrolls sideways on a phone. Every page a shopper, a member, a business representative
 * and the editor's webview can reach is opened at 390 × 844 in both languages, and the document must be no wider
 * than the window (the failure names the elements whose right edge is past it). Each page also passes axe-core
 * (with the `region` and `landmark-unique` rules, fixtures.ts), My page's own content starts on the first screen,
 * and no key-visual headline is clipped. Pages behind a state (checkout, a purchase request, an order) are reached the
 * way a person reaches them, so they are measured with real content. One browser context per language and role.
 *
 * A route the walk does not reach fails the test until it is reached here or listed in NOT_WALKED with its reason,
 * so a new page is measured the day it is added.
 */
type Lang = "en" | "ko";
type Role = "shopper" | "member" | "business" | "webview";

const PHONE = { width: 390, height: 844 };
/** A folder to save a full-page screenshot of every page measured, for looking at them (unset: none). */
const SHOTS = process.env.PHONE_SHOTS;

/** Routes that are not pages a shopper, member, representative or the webview sees, and why. */
const NOT_WALKED: Record<string, string> = {
  "routes/api.v1.$": "the API",
  "routes/files.$token": "a file download",
  "routes/locales.$lng.$ns": "JSON of strings for the browser",
  "routes/logout": "an action that redirects",
  "routes/mypage.certificate-pdf.$id": "a PDF",
  "routes/mypage.estimate-pdf": "a PDF",
  "routes/mypage.qna.$id.attachment": "an attachment download",
  "routes/outbox.$id.eml": "a mail file for operators",
  "routes/_store.outbox._index": "the test outbox, for operators only",
  "routes/_store.outbox.$id": "the test outbox, for operators only",
  "routes/pay.return": "the payment gateway's return address: it redirects",
  "routes/webhooks.payments.$gateway": "the payment gateway's webhook",
  "routes/_store.pay.portone": "the PortOne gateway's page: the e2e store pays through the sandbox gateway",
  "routes/_store.mypage._index": "redirects to /mypage/home",
  "embedded-index": "redirects to /mypage/sw/home",
  "routes/_store.mypage.download-bridge": "needs a signed download token the editor hands over",
  "routes/_store.mypage.withdraw-complete": "shown after an account is deleted",
  "routes/_store.bridge": "needs the editor's encrypted hand-off token",
  "routes/_store.rejection": "needs a mail's signed unsubscribe token",
  "routes/_store.rejec-complete": "shown after unsubscribing through a mail's link",
  "routes/_store.pay-cancel": "shown when a payment window is closed",
  "routes/_store.pay-error": "shown when a payment fails",
  "embedded-certificate": "a key-only buyer's certificate, opened from the editor after a direct purchase",
  "embedded-download-start": "started from the download tab with the items chosen",
  "routes/_store.support.detail": "the FAQ detail: answers 404 without an entry",
};

/** The elements whose right edge is past the window and that no scrolling or clipping box of their own holds. */
async function widthProblem(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth <= width) return null;
    const held = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== "visible") return true;
      return false;
    };
    const name = (el: Element) => {
      const cls = typeof el.className === "string" && el.className.trim() ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
      return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${cls}`;
    };
    const past = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !held(el))
      .map(
        (el) =>
          `${el.parentElement ? `${name(el.parentElement)} > ` : ""}${name(el)} (right edge ${Math.round(el.getBoundingClientRect().right)})`,
      );
    return `document ${scrollWidth} px wide in a ${width} px window; past the edge: ${past.slice(0, 12).join("; ")}`;
  });
}

/** Key-visual and banner headlines are whole: each banner's text lies inside its picture's box. */
async function clippedHeadlines(page: Page): Promise<string[]> {
  return page.locator(".banner").evaluateAll((banners) =>
    banners.flatMap((b) => {
      const box = b.getBoundingClientRect();
      const text = b.querySelector(".banner-text");
      if (!text) return [];
      const t = text.getBoundingClientRect();
      return t.top < box.top - 0.5 || t.bottom > box.bottom + 0.5 ? [(text.textContent ?? "").trim()] : [];
    }),
  );
}

/** Where My page's heading ends, and the top of what follows it, from the window's top. */
const myPageStart = (page: Page) =>
  page
    .locator(".mypage-body h1")
    .first()
    .evaluate((h) => {
      const next = h.nextElementSibling;
      return {
        heading: h.getBoundingClientRect().bottom,
        next: next ? next.getBoundingClientRect().top : h.getBoundingClientRect().bottom,
      };
    });

/** Console errors and failed sub-resources of a context's pages (as fixtures.ts does for the test's own page). */
function watch(page: Page, problems: string[]) {
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() < 400 || r.request().resourceType() === "document") return;
    const formAnswer = r.request().method() === "POST" && new URL(r.url()).pathname.endsWith(".data") && r.status() < 500;
    if (!formAnswer) problems.push(`${r.status()} ${r.url()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
}

/** A pathname's route: static patterns before dynamic ones (/cart before /:category), the catch-all last. */
function routeOf(routes: PageRoute[], pathname: string): PageRoute | undefined {
  const rank = (r: PageRoute) => (r.params.includes("*") ? 99 : r.params.length);
  const ranked = [...routes].sort((a, b) => rank(a) - rank(b));
  return ranked.find((r) => new RegExp(`^${r.pattern.replace(/:[^/]+/g, "[^/]+").replace(/\*$/, ".+")}$`).test(pathname));
}

class Walk {
  constructor(
    readonly page: Page,
    readonly lang: Lang,
    readonly role: Role,
    readonly routes: PageRoute[],
    readonly seen: Map<string, string>,
  ) {}

  /** Measures the page now shown (hydrated, so what its scripts add is there too) and counts its route. */
  async check() {
    const { page } = this;
    await hydrated(page);
    const where = `${this.role} (${this.lang}) at ${new URL(page.url()).pathname}${new URL(page.url()).search}`;
    expect(await widthProblem(page), `${where}: wider than the window`).toBeNull();
    expect(await clippedHeadlines(page), `${where}: clipped banner headlines`).toEqual([]);
    if (this.role !== "webview" && (await page.locator(".mypage-body h1").count())) {
      const start = await myPageStart(page);
      // The heading and the top of what follows it sit in the upper 60 % of the first screen: the menu above them
      // leaves the screen to the page's own content.
      expect(start.next, `${where}: My page's content starts at ${Math.round(start.next)} px`).toBeLessThanOrEqual(PHONE.height * 0.6);
    }
    await expectAccessible(page);
    if (SHOTS) {
      const name = `${this.role}-${this.lang}${new URL(page.url()).pathname.replace(/[^\w]+/g, "-")}`.replace(/-+$/, "");
      await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
    }
    const route = routeOf(this.routes, new URL(page.url()).pathname);
    if (route && !this.seen.has(route.id)) this.seen.set(route.id, `${this.role}: ${new URL(page.url()).pathname}`);
  }

  async open(path: string) {
    await this.page.goto(path);
    await this.check();
  }

  /** The first link on this page whose address matches, opened; false when there is none. */
  async openLink(address: RegExp) {
    const hrefs = await this.page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    const href = hrefs.find((h) => address.test(h));
    if (!href) return false;
    await this.open(href);
    return true;
  }
}

async function inContext(browser: Browser, options: BrowserContextOptions, run: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ viewport: PHONE, baseURL: test.info().project.use.baseURL, ...options });
  const problems: string[] = [];
  const page = await context.newPage();
  watch(page, problems);
  context.on("page", (p) => p !== page && watch(p, problems));
  try {
    await run(page);
  } finally {
    await context.close();
  }
  expect(problems, "console errors and failed requests").toEqual([]);
}

/** Paid, available items of a space, from the public API. */
async function paidCodes(page: Page, space: string) {
  const res = await page.request.get(`/api/v1/contents?space=${space}&limit=40`);
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { data: { list: { code: string; price_type: string; discontinued: boolean }[] } };
  return body.data.list.filter((c) => c.price_type === "paid" && !c.discontinued).map((c) => c.code);
}

const addToCart = async (page: Page, code: string) =>
  expect((await page.request.post("/cart", { form: { intent: "add", code, redirectTo: "/cart" } })).ok()).toBe(true);

const WORDS = {
  en: { buyDirect: "Buy directly with the key", pay: "Pay", next: "Next", approve: "Approve payment", buySelected: "Buy selected" },
  ko: { buyDirect: "라이선스 키로 바로 구매", pay: "결제하기", next: "다음", approve: "결제 승인", buySelected: "선택 상품 구매" },
} as const;
const AGREE = {
  en: { card: /^Credit card/, terms: /^I agree to the terms of use and the privacy policy/, paid: /^I agree to the paid-service terms/ },
  ko: { card: /^신용카드/, terms: /^이용약관 및 개인정보 처리방침에 동의합니다/, paid: /^유료 서비스 이용약관에 동의합니다/ },
} as const;

/** On /pay03: card, both agreements, Pay; the sandbox page is measured, then approved: ends on /payComp. */
async function payByCard(walk: Walk) {
  const { page, lang } = walk;
  await expect(page).toHaveURL((u) => u.pathname === "/pay03");
  await walk.check();
  await page.getByRole("radio", { name: AGREE[lang].card }).check();
  await page.getByRole("checkbox", { name: AGREE[lang].terms }).check();
  await page.getByRole("checkbox", { name: AGREE[lang].paid }).check();
  await page.getByRole("button", { name: WORDS[lang].pay, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname.startsWith("/sandbox/pay/"));
  await walk.check();
  await page.getByRole("button", { name: WORDS[lang].approve, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === "/payComp");
  await walk.check();
}

/** From /pay01 (measured) to /pay03 as the member: Next, the demo licence on /pay02, past items it already holds. */
async function memberToPay03(walk: Walk) {
  const { page, lang } = walk;
  await expect(page).toHaveURL((u) => u.pathname === "/pay01");
  await walk.check();
  await page.getByRole("link", { name: WORDS[lang].next, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === "/pay02" || u.pathname === "/pay03");
  if (new URL(page.url()).pathname === "/pay02") {
    await walk.check();
    await page.getByRole("radio", { name: /VEDT-IND-0001-DEMO/ }).check();
    await page.getByRole("button", { name: WORDS[lang].next, exact: true }).click();
    const anyway = page.getByRole("link", { name: lang === "ko" ? "그대로 구매" : "Buy them anyway", exact: true });
    await expect(async () => {
      if (new URL(page.url()).pathname === "/pay02" && (await anyway.isVisible())) await anyway.click();
      expect(new URL(page.url()).pathname).toBe("/pay03");
    }).toPass({ timeout: 30_000 });
  }
}

async function shopper(walk: Walk, lang: Lang) {
  const { page } = walk;
  await page.goto(`/?language=${lang}`);
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
  await walk.check();
  for (const path of ["/video", "/icon", "/audio", "/font", "/package", "/benefit", "/list/video/all", ...(await itemPages(page.request))])
    await walk.open(path);
  for (const path of ["/search/all?keywords=ocean", "/price", "/price/audio-bgm", "/support", "/support/question", "/event"])
    await walk.open(path);
  await walk.openLink(/^\/event\/\d+$/);
  await walk.open("/notice");
  await walk.openLink(/^\/notice\/\d+$/);
  for (const path of ["/policy", "/modules", "/welcome", "/login", "/join", "/404", "/no/such/page", "/errorservice", "/servicecheck"])
    await walk.open(path);
  await walk.open("/tempPop");
  // The interstitial forwards after a moment: measured while its script is held, then let go.
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  const script = "**/build/entry.client-*.js";
  await page.route(script, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/loading?to=%2Fcart", { waitUntil: "domcontentloaded" });
  expect(await widthProblem(page), "/loading: wider than the window").toBeNull();
  await expectAccessible(page);
  walk.seen.set("routes/loading", "shopper: /loading");
  release();
  await expect(page).toHaveURL((u) => u.pathname === "/cart");
  await page.unroute(script);

  // A purchase request with a business key: cart, the key, the request form, the sent request and its quote.
  const packages = await paidCodes(page, "package");
  expect(packages.length).toBeGreaterThan(8);
  const [requested, direct] = lang === "en" ? [packages[2], packages[3]] : [packages[4], packages[5]];
  await addToCart(page, requested);
  await walk.open("/cart");
  await page.locator(".cart-line").getByRole("checkbox").first().check();
  await page.getByRole("button", { name: T[lang].requestPurchase, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === "/pay-key");
  await walk.check();
  await page.getByRole("textbox", { name: T[lang].serial, exact: true }).fill(BUSINESS_KEY.serial);
  await page.getByLabel(T[lang].licenseEmail, { exact: true }).fill(BUSINESS_KEY.email);
  await page.getByRole("button", { name: T[lang].lookUp, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === "/request");
  await walk.check();
  await page.getByLabel(T[lang].requesterEmail, { exact: true }).fill("phone@studio.example");
  await page.getByLabel(T[lang].message, { exact: true }).fill("Phone width");
  await page.getByRole("button", { name: T[lang].send, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === "/requestComp");
  await walk.check();
  const quote = await page.locator(".pay-actions a[target=_blank]").getAttribute("href");
  expect(quote).toMatch(/^\/mypage\/estimate\?token=/);
  await walk.open(quote ?? "");

  // A direct purchase with the key: its order's page (signed link) and a line's certificate.
  await addToCart(page, direct);
  await page.goto("/cart");
  await hydrated(page);
  for (const box of await page.locator('.cart-line input[name="cart_id"]').all()) await box.uncheck();
  await page.locator(`.cart-line:has(a[href*="${direct}"])`).getByRole("checkbox").check();
  await page.getByRole("button", { name: WORDS[lang].buyDirect, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === "/pay01");
  await walk.check();
  await page.getByRole("link", { name: WORDS[lang].next, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === "/pay-key");
  await page.getByRole("textbox", { name: T[lang].serial, exact: true }).fill(BUSINESS_KEY.serial);
  await page.getByLabel(T[lang].licenseEmail, { exact: true }).fill(BUSINESS_KEY.email);
  await page.getByRole("button", { name: T[lang].lookUp, exact: true }).click();
  await payByCard(walk);
  expect(await walk.openLink(/^\/mypage\/order\/\d+\?access=/), "the key order's link on /payComp").toBe(true);
  expect(await walk.openLink(/^\/mypage\/order\/\d+\/certificate\/\d+\?access=/), "a line's certificate").toBe(true);
}

async function member(walk: Walk, lang: Lang) {
  const { page } = walk;
  await signIn(page, lang, MEMBER, "/mypage/home");
  await walk.check();
  // A pass from its price page, then a package from the cart: passes, payments and downloads have rows to show.
  await walk.open("/price/video");
  const pass = await page.locator('input[name="pass"]').first().getAttribute("value");
  await walk.open(`/pay01?pass=${pass}`);
  await memberToPay03(walk);
  await payByCard(walk);
  const packages = await paidCodes(page, "package");
  await addToCart(page, lang === "en" ? packages[6] : packages[7]);
  await walk.open("/cart");
  await hydrated(page);
  for (const box of await page.locator('.cart-line input[name="cart_id"]').all()) await box.uncheck();
  await page.locator(".cart-line").getByRole("checkbox").first().check();
  await page.getByRole("button", { name: WORDS[lang].buySelected, exact: true }).click();
  await memberToPay03(walk);
  await payByCard(walk);
  for (const path of ["/mypage/member", "/mypage/withdraw", "/mypage/passes", "/mypage/download", "/mypage/interest", "/mypage/licenses"])
    await walk.open(path);
  await walk.open("/mypage/pay");
  expect(await walk.openLink(/^\/mypage\/pay\/\d+$/), "the member's payment").toBe(true);
  expect(await walk.openLink(/^\/mypage\/certificate\/\d+$/), "a bought item's certificate").toBe(true);
  // An inquiry on the 1:1 form, then the list and the inquiry itself.
  await walk.open("/support/question");
  await page.locator('select[name="category"]').selectOption("download");
  await page.locator('input[name="title"]').fill(`Phone width ${lang}`);
  await page.locator('textarea[name="description"]').fill("Does the page fit a phone?");
  await page.locator('main form button[type="submit"]').click();
  await expect(page.locator('main a[href="/mypage/qna"]')).toBeVisible();
  await walk.open("/mypage/qna");
  expect(await walk.openLink(/^\/mypage\/qna\/\d+$/), "the member's inquiry").toBe(true);
}

async function business(walk: Walk, lang: Lang) {
  const { page } = walk;
  await signIn(page, lang, REPRESENTATIVE, "/mypage/home");
  await walk.check();
  // The seed's requests: 1 waiting, 2 paid (with its order), 3 expired.
  for (const path of ["/mypage/purchase", "/mypage/purchase/1", "/mypage/purchase/2", "/mypage/purchase/3", "/mypage/estimate?id=1"])
    await walk.open(path);
  for (const path of ["/mypage/licenses", "/mypage/passes", "/mypage/pay"]) await walk.open(path);
  expect(await walk.openLink(/^\/mypage\/pay\/\d+$/), "the representative's seeded order").toBe(true);
}

async function webview(walk: Walk, lang: Lang) {
  const { page } = walk;
  await page.goto(`/mypage/sw/home?language=${lang}`);
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
  await walk.check();
  await walk.open("/mypage/sw/pay");
  expect(await walk.openLink(/^\/mypage\/sw\/pay\/\d+$/), "a payment of the demo licence").toBe(true);
  for (const path of ["/mypage/sw/download", "/mypage/sw/benefit", "/mypage/sw/request"]) await walk.open(path);
}

async function signIn(page: Page, lang: Lang, who: { email: string; password: string }, to: string) {
  const t = T[lang];
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}&language=${lang}`);
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
  await hydrated(page);
  await page.getByLabel(t.email, { exact: true }).fill(who.email);
  await page.getByLabel(t.password, { exact: true }).fill(who.password);
  await page.getByRole("button", { name: t.signIn, exact: true }).click();
  await expect(page).toHaveURL((u) => u.pathname === to);
}

/**
 * The walk of one language (phone-width-ko.spec.ts, phone-width-en.spec.ts: one file per language, so the two
 * end-to-end lanes can take one each).
 */
export function phoneWidthWalk(lang: Lang) {
  test.describe.configure({ timeout: 600_000 });
  test(`every page at 390 px in ${lang}: no sideways scrolling, axe-core clean`, async ({ browser }) => {
    const routes = (await pageRoutes()).filter((r) => !r.id.startsWith("admin"));
    const seen = new Map<string, string>();
    const walk = (role: Role) => (page: Page) =>
      ({ shopper, member, business, webview })[role](new Walk(page, lang, role, routes, seen), lang);
    await inContext(browser, {}, walk("shopper"));
    await inContext(browser, {}, walk("member"));
    await inContext(browser, {}, walk("business"));
    await inContext(browser, { extraHTTPHeaders: { license_id: WEBVIEW.licence, hw_info: WEBVIEW.hwInfo } }, walk("webview"));
    const missed = routes.filter((r) => !seen.has(r.id) && !(r.id in NOT_WALKED)).map((r) => `${r.id} (${r.pattern})`);
    expect(missed, "page routes neither measured here nor listed in NOT_WALKED").toEqual([]);
    const stale = Object.keys(NOT_WALKED).filter((id) => seen.has(id) || !routes.some((r) => r.id === id));
    expect(stale, "NOT_WALKED entries that are measured after all or no longer routes").toEqual([]);
  });
}
