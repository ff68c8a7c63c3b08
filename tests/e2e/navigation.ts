import type { APIRequestContext, Browser, BrowserContextOptions, Page } from "@playwright/test";
import { expect } from "@playwright/test";

/**
 * Shared by the navigation-history specs (split in two files so the e2e shards stay balanced). Back, Forward and reload through the storefront's pages, My page, the business purchase request (through
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
export type Lang = "en" | "ko";

export const SERVICE_ERROR = { en: "Service error", ko: "서비스 오류" } as const;
export const MEMBER = { email: "member@example.com", password: "market1234!" };
export const REPRESENTATIVE = { email: "business@example.com", password: "market1234!" };
export const WEBVIEW = { licence: "VEDT-IND-0001-DEMO", hwInfo: "HW-DEMO-IND-0001" };
// The second demo business key, as business.spec.ts uses: the first key's seeded requests belong to purchase.spec.ts.
export const BUSINESS_KEY = { serial: "VEDT-B2B-0002-DEMO", email: "editor2@studio.example" };

export const T = {
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

export const HYDRATION = /Minified React error #(418|423|425)\b|Hydration failed|did not match|error while hydrating|server-rendered HTML/i;

/** Console errors, any console line about hydration, and page errors (React reports hydration errors as such). */
export function watch(page: Page, problems: string[]) {
  page.on("console", (m) => {
    const text = m.text();
    if (m.type() === "error" || HYDRATION.test(text)) problems.push(`console ${m.type()} at ${page.url()}: ${text}`);
  });
  page.on("pageerror", (e) => problems.push(`page error at ${page.url()}: ${e.message}`));
  return page;
}

/** A browser context whose pages (pop-ups too) are watched; fails the test on anything they logged. */
export async function walkIn(browser: Browser, options: BrowserContextOptions, run: (page: Page) => Promise<void>) {
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
export const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.documentElement).some((k) => k.startsWith("__reactProps$")));

export interface Entry {
  /** Path and query. */
  url: string;
  title: string;
}

export const addressOf = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

/** The page is hydrated and idle (and, when given, the entry expected), and it is not the service-error page. */
export async function settled(page: Page, lang: Lang, expected?: Entry) {
  if (expected) await expect(page).toHaveURL((u) => u.pathname + u.search === expected.url);
  await hydrated(page);
  await expect(page.locator(".nav-progress")).not.toHaveClass(/is-busy/);
  if (expected) await expect(page).toHaveTitle(expected.title);
  await expect(page.getByRole("heading", { name: SERVICE_ERROR[lang], exact: true })).toHaveCount(0);
}

/** Opens a page as a document: an entry the walk comes back to. */
export async function visit(page: Page, lang: Lang, path: string): Promise<Entry> {
  await page.goto(path);
  await settled(page, lang);
  return { url: addressOf(page), title: await page.title() };
}

/** The page reached by following a link (a client-side navigation): an entry of the current document. */
export async function follow(page: Page, lang: Lang, link: ReturnType<Page["locator"]>, path: string): Promise<Entry> {
  await link.click();
  await expect(page).toHaveURL((u) => u.pathname + u.search === path);
  await settled(page, lang);
  return { url: addressOf(page), title: await page.title() };
}

/**
 * Back through every entry to the first, a reload there, then Forward a few steps (each a document load like the Back
 * ones; every page has then been hydrated at least twice): each step checked. Keeps the spec to minutes.
 */
export async function walkHistory(page: Page, lang: Lang, entries: Entry[], forward = Math.min(entries.length - 1, 5)) {
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
 * How far Back a walk goes in each language: every entry in Korean; in English the last six (each English page was
 * already hydrated when visited, and Back over documents is the same document load in either language), which
 * keeps the two walks to half the page loads.
 */
export const walked = (lang: Lang, entries: Entry[]) => (lang === "ko" ? entries : entries.slice(-6));

/**
 * A reload, then Back before the reloaded document has hydrated: the browser entry's script is held until the
 * Back is done. The page must end as `expected` (the entry's own page, or where its loader sends it), hydrated.
 */
export async function backBeforeHydration(page: Page, lang: Lang, expected: Entry) {
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
export async function itemPages(request: APIRequestContext) {
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

export async function signIn(page: Page, lang: Lang, who: { email: string; password: string }) {
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
export async function firstDetail(page: Page, prefix: string): Promise<string | null> {
  const hrefs = await page.locator(`a[href^="${prefix}"]`).evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.find((h) => new RegExp(`^${prefix}\\d+$`).test(h)) ?? null;
}
