import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

type Lang = "en" | "ko";

const T = {
  en: {
    searchBox: "Search assets",
    searchButton: "Search",
    resultsFor: (k: string) => `Results for “${k}”`,
    tabs: "Result types",
    tab: { all: "All", audio: "Audio", video: "Video" },
    filters: "Filters",
    grid: "Search",
    sort: "Sort",
    price: "Price",
    priceAll: "All",
    pricePaid: "Paid",
    category: "Category",
    genre: "Genre",
    type: "Type",
    typeAll: "All",
    bgm: "BGM",
    ai: "AI BGM only",
    duration: "Duration",
    anyLength: "Any length",
    bpm: "BPM",
    anyTempo: "Any tempo",
    slow: "Slow (60–90)",
    apply: "Apply filters",
    reset: "Reset",
    count: /^(\d[\d,]*) results?$/,
    related: "Related words",
    recommended: "Recommended keywords",
    noResults: (k: string) => `No results found for “${k}”.`,
    corrected: (k: string) => `Showing results for “${k}”`,
    pages: "Pages",
    page: (n: number) => `Page ${n}`,
    /** The meta line of a background-music card: kind and tempo. */
    musicMeta: /^(Background music|AI background music) · (\d+) BPM$/,
    keyword: "piano",
    music: "music",
  },
  ko: {
    searchBox: "에셋 검색",
    searchButton: "검색",
    resultsFor: (k: string) => `“${k}” 검색 결과`,
    tabs: "결과 유형",
    tab: { all: "전체", audio: "오디오", video: "영상" },
    filters: "필터",
    grid: "검색",
    sort: "정렬",
    price: "가격",
    priceAll: "전체",
    pricePaid: "유료",
    category: "카테고리",
    genre: "장르",
    type: "유형",
    typeAll: "전체",
    bgm: "배경음악",
    ai: "AI 배경음악만",
    duration: "길이",
    anyLength: "전체 길이",
    bpm: "BPM",
    anyTempo: "전체 템포",
    slow: "느림 (60–90)",
    apply: "필터 적용",
    reset: "초기화",
    count: /^(\d[\d,]*)개 결과$/,
    related: "연관 검색어",
    recommended: "추천 검색어",
    noResults: (k: string) => `“${k}”에 대한 검색 결과가 없습니다.`,
    corrected: (k: string) => `“${k}” 검색 결과를 표시합니다`,
    pages: "페이지",
    page: (n: number) => `${n}페이지`,
    musicMeta: /^(배경음악|AI 배경음악) · (\d+) BPM$/,
    keyword: "피아노",
    music: "음악",
  },
} as const;

const PAGE_SIZE = 42;

const q = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;

/** The result count of the page: the status heading above the results ("16 results", "16개 결과"). */
async function resultCount(page: Page, lang: Lang): Promise<number> {
  const status = page.getByRole("status").filter({ hasText: T[lang].count });
  await expect(status).toHaveCount(1);
  const match = ((await status.textContent()) ?? "").trim().match(T[lang].count);
  expect(match, "result count").not.toBeNull();
  return Number((match as RegExpMatchArray)[1].replace(/\D/g, ""));
}

/** Waits until the status heading shows `n` results. */
const expectCount = (page: Page, lang: Lang, n: number) =>
  expect(page.getByRole("status").filter({ hasText: T[lang].count })).toHaveText(
    lang === "en" ? `${n} result${n === 1 ? "" : "s"}` : `${n}개 결과`,
  );

const grid = (page: Page, lang: Lang) => page.getByRole("list", { name: T[lang].grid, exact: true });

/** The hrefs of the result cards, in order. */
const cardHrefs = (page: Page, lang: Lang) =>
  grid(page, lang)
    .getByRole("listitem")
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") as string));

/** One result-type tab ("Audio 16"). */
const tabLink = (page: Page, lang: Lang, tab: keyof (typeof T)["en"]["tab"]) =>
  page
    .getByRole("navigation", { name: T[lang].tabs, exact: true })
    .getByRole("link", { name: new RegExp(`^${T[lang].tab[tab]} [\\d,]+$`) });

/** The count badge of one result-type tab. */
const tabBadge = async (page: Page, lang: Lang, tab: keyof (typeof T)["en"]["tab"]) =>
  Number(((await tabLink(page, lang, tab).locator(".badge").textContent()) ?? "").replace(/\D/g, ""));

/**
 * Waits until the page shows the search the address names. Remix moves the address before React renders the
 * new data (in a transition), and a filter may leave the count as it was; the tab links carry the filters of
 * the rendered search, so they tell when it is on screen.
 */
const rendered = (page: Page, lang: Lang, params: Record<string, string | null>) =>
  expect
    .poll(async () => {
      const shown = new URL((await tabLink(page, lang, "audio").getAttribute("href")) ?? "", "http://x").searchParams;
      return Object.fromEntries(Object.keys(params).map((k) => [k, shown.get(k)]));
    })
    .toEqual(params);

/** Waits for React to hydrate the page (the root element is hydrated last), so the filters submit on change. */
const hydrated = (page: Page) =>
  page.waitForFunction(() => Object.keys(document.documentElement).some((k) => k.startsWith("__reactProps$")));

const filters = (page: Page, lang: Lang) => page.getByRole("form", { name: T[lang].filters, exact: true });
const group = (page: Page, lang: Lang, legend: string) => filters(page, lang).getByRole("group", { name: legend, exact: true });
const radio = (page: Page, lang: Lang, legend: string, name: string) => group(page, lang, legend).getByRole("radio", { name, exact: true });

/** The keywords chips under a heading ("Related words", "Recommended keywords"). */
const chips = (page: Page, heading: string): Locator =>
  page
    .locator(".keyword-row")
    .filter({ has: page.getByRole("heading", { level: 3, name: heading, exact: true }) })
    .getByRole("link");

/** Every result card is background music (BGM or AI BGM) with a tempo in the Slow band (60 to under 90). */
async function expectSlowMusicCards(page: Page, lang: Lang) {
  const metas = (await grid(page, lang).getByRole("listitem").locator(".card-meta").allTextContents()).map((m) => m.trim());
  expect(metas.length).toBeGreaterThan(0);
  for (const meta of metas) {
    expect(meta).toMatch(T[lang].musicMeta);
    const bpm = Number((meta.match(T[lang].musicMeta) as RegExpMatchArray)[2]);
    expect(bpm, meta).toBeGreaterThanOrEqual(60);
    expect(bpm, meta).toBeLessThanOrEqual(89);
  }
}

/** The address carries the Slow band (as bpm=60-90 or bpm_start=60&bpm_end=90) and audioType=bgm. */
function hasSlowBgm(url: URL): boolean {
  const p = url.searchParams;
  const slow = p.get("bpm") === "60-90" || (p.get("bpm_start") === "60" && p.get("bpm_end") === "90");
  return slow && p.get("audioType") === "bgm";
}

/**
 * Every filter of the audio search shows its default: Best Match, all prices, no category, any type/length/tempo.
 * Soft assertions, so a failure lists every control left over.
 */
async function expectDefaultFilters(page: Page, lang: Lang) {
  const t = T[lang];
  await expect.soft(filters(page, lang).getByRole("combobox", { name: t.sort, exact: true })).toHaveValue("accuracy");
  await expect.soft(radio(page, lang, t.price, t.priceAll)).toBeChecked();
  await expect.soft(radio(page, lang, t.type, t.typeAll)).toBeChecked();
  await expect.soft(radio(page, lang, t.duration, t.anyLength)).toBeChecked();
  await expect.soft(radio(page, lang, t.bpm, t.anyTempo)).toBeChecked();
  await expect.soft(group(page, lang, t.type).getByRole("checkbox", { name: t.ai, exact: true })).not.toBeChecked();
  for (const legend of [t.category, t.genre]) {
    const checked = await group(page, lang, legend)
      .getByRole("checkbox")
      .evaluateAll((boxes) => boxes.filter((b) => (b as HTMLInputElement).checked).length);
    expect.soft(checked, `${legend} checked`).toBe(0);
  }
  // Exactly one checked radio per group: nothing else left over.
  expect.soft(await filters(page, lang).locator('input[type="radio"]:checked').count()).toBe(4);
}

for (const lang of ["en", "ko"] as const) {
  test(`header search in ${lang}: "${T[lang].keyword}" lands on /search/all with per-type counts`, async ({ page }) => {
    const t = T[lang];
    await openIn(page, "/", lang);
    const box = page.getByRole("search");
    await box.getByRole("searchbox", { name: t.searchBox, exact: true }).fill(t.keyword);
    await box.getByRole("button", { name: t.searchButton, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/search/all" && url.searchParams.get("keywords") === t.keyword);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.resultsFor(t.keyword));
    await expect(page).toHaveTitle(new RegExp(`^${t.keyword} – `));
    await expect(tabLink(page, lang, "all")).toHaveAttribute("aria-current", "page");

    const total = await resultCount(page, lang);
    expect(total).toBeGreaterThan(0);
    expect(await tabBadge(page, lang, "all")).toBe(total);
    // Every result is on this one page, so the audio cards can be counted.
    expect(total).toBeLessThanOrEqual(PAGE_SIZE);
    await expect(page.getByRole("navigation", { name: t.pages, exact: true })).toHaveCount(0);
    const hrefs = await cardHrefs(page, lang);
    expect(hrefs).toHaveLength(total);
    const audio = hrefs.filter((h) => h.startsWith("/contents/audio?code="));
    expect(audio.length).toBeGreaterThan(0);
    expect(await tabBadge(page, lang, "audio")).toBe(audio.length);
    // The piano pieces are what the query asked for.
    await expect(
      grid(page, lang)
        .getByRole("listitem")
        .filter({ hasText: lang === "en" ? /Piano/ : /피아노/ })
        .first(),
    ).toBeVisible();
    await expect(chips(page, t.related).first()).toBeVisible();
    await expectAccessible(page);

    // The Audio tab lists exactly the audio results.
    await tabLink(page, lang, "audio").click();
    await expect(page).toHaveURL((url) => url.pathname === "/search/audio" && url.searchParams.get("keywords") === t.keyword);
    await expect(tabLink(page, lang, "audio")).toHaveAttribute("aria-current", "page");
    await expectCount(page, lang, audio.length);
    expect((await cardHrefs(page, lang)).sort()).toEqual([...audio].sort());
  });
}

test("audio filters submit on change: Slow BPM and BGM narrow the results, back and forward restore them", async ({ page }) => {
  const lang = "en";
  const t = T[lang];
  await openIn(page, q("/search/all", { keywords: "piano" }), lang);
  await hydrated(page);
  const allCount = await resultCount(page, lang);
  await tabLink(page, lang, "audio").click();
  await expect(page).toHaveURL((url) => url.pathname === "/search/audio" && url.search === "?keywords=piano");
  await expect(tabLink(page, lang, "audio")).toHaveAttribute("aria-current", "page");
  const unfiltered = await resultCount(page, lang);
  expect(unfiltered).toBeGreaterThan(0);
  await expectDefaultFilters(page, lang);

  // Each change submits the form by itself (no "Apply filters" press).
  await radio(page, lang, t.bpm, t.slow).check();
  await expect(page).toHaveURL((url) => url.searchParams.get("bpm") === "60-90" || url.searchParams.get("bpm_start") === "60");
  await rendered(page, lang, { bpm_start: "60", bpm_end: "90" });
  await radio(page, lang, t.type, t.bgm).check();
  await expect(page).toHaveURL(
    (url) => url.pathname === "/search/audio" && url.searchParams.get("keywords") === "piano" && hasSlowBgm(url),
  );
  await rendered(page, lang, { keywords: "piano", bpm_start: "60", bpm_end: "90", audioType: "bgm" });
  const filtered = await resultCount(page, lang);
  expect(filtered).toBeGreaterThan(0);
  expect(filtered).toBeLessThan(unfiltered);
  await expect(grid(page, lang).getByRole("listitem")).toHaveCount(Math.min(filtered, PAGE_SIZE));
  await expectSlowMusicCards(page, lang);
  expect(await tabBadge(page, lang, "audio")).toBe(filtered);
  await expect(radio(page, lang, t.bpm, t.slow)).toBeChecked();
  await expect(radio(page, lang, t.type, t.bgm)).toBeChecked();
  const filteredUrl = page.url();

  // Filter changes replace the history entry: Back goes to the page before the filtering, Forward returns to it.
  await page.goBack();
  await expect(page).toHaveURL((url) => url.pathname === "/search/all" && url.search === "?keywords=piano");
  await expectCount(page, lang, allCount);
  await page.goForward();
  await expect(page).toHaveURL(filteredUrl);
  await rendered(page, lang, { bpm_start: "60", bpm_end: "90", audioType: "bgm" });
  await expectCount(page, lang, filtered);
  await expectSlowMusicCards(page, lang);
  await expect(radio(page, lang, t.bpm, t.slow)).toBeChecked();
  await expect(radio(page, lang, t.type, t.bgm)).toBeChecked();
});

test("paging keeps the query and the filters, and shows other results", async ({ page }) => {
  const lang = "en";
  const t = T[lang];
  await openIn(page, q("/search/all", { keywords: "music" }), lang);
  await hydrated(page);
  const total = await resultCount(page, lang);
  expect(total).toBeGreaterThan(PAGE_SIZE);
  await filters(page, lang).getByRole("combobox", { name: t.sort, exact: true }).selectOption("recent");
  await expect(page).toHaveURL((url) => url.searchParams.get("sort") === "recent" && url.searchParams.get("keywords") === "music");
  await rendered(page, lang, { keywords: "music", sort: "recent" });
  await expectCount(page, lang, total);
  const pages = page.getByRole("navigation", { name: t.pages, exact: true });
  await expect(pages.getByRole("link", { name: t.page(1), exact: true })).toHaveAttribute("aria-current", "page");
  const first = await cardHrefs(page, lang);
  expect(first).toHaveLength(PAGE_SIZE);

  await pages.getByRole("link", { name: t.page(2), exact: true }).click();
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === "/search/all" &&
      url.searchParams.get("keywords") === "music" &&
      url.searchParams.get("sort") === "recent" &&
      url.searchParams.get("page") === "2",
  );
  await expect(pages.getByRole("link", { name: t.page(2), exact: true })).toHaveAttribute("aria-current", "page");
  await expectCount(page, lang, total);
  await expect(grid(page, lang).getByRole("listitem")).toHaveCount(Math.min(PAGE_SIZE, total - PAGE_SIZE));
  const second = await cardHrefs(page, lang);
  expect(second.filter((h) => first.includes(h))).toEqual([]);
  await expect(filters(page, lang).getByRole("combobox", { name: t.sort, exact: true })).toHaveValue("recent");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.resultsFor("music"));
});

test("paging an audio search in ko keeps the audio type", async ({ page }) => {
  const lang = "ko";
  const t = T[lang];
  await openIn(page, q("/search/audio", { keywords: t.music }), lang);
  await hydrated(page);
  await radio(page, lang, t.type, t.bgm).check();
  await expect(page).toHaveURL((url) => url.searchParams.get("audioType") === "bgm");
  await rendered(page, lang, { keywords: t.music, audioType: "bgm" });
  const total = await resultCount(page, lang);
  expect(total).toBeGreaterThan(PAGE_SIZE);
  const first = await cardHrefs(page, lang);
  const pages = page.getByRole("navigation", { name: t.pages, exact: true });
  await pages.getByRole("link", { name: t.page(2), exact: true }).click();
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === "/search/audio" &&
      url.searchParams.get("keywords") === t.music &&
      url.searchParams.get("audioType") === "bgm" &&
      url.searchParams.get("page") === "2",
  );
  await expect(pages.getByRole("link", { name: t.page(2), exact: true })).toHaveAttribute("aria-current", "page");
  await expectCount(page, lang, total);
  const second = await cardHrefs(page, lang);
  expect(second.length).toBe(Math.min(PAGE_SIZE, total - PAGE_SIZE));
  expect(second.filter((h) => first.includes(h))).toEqual([]);
  for (const meta of await grid(page, lang).getByRole("listitem").locator(".card-meta").allTextContents())
    expect(meta.trim()).toMatch(t.musicMeta);
  await expect(radio(page, lang, t.type, t.bgm)).toBeChecked();
});

test("Reset returns to the bare search and every filter to its default", async ({ page }) => {
  const lang = "en";
  const t = T[lang];
  await openIn(page, q("/search/audio", { keywords: "piano" }), lang);
  await hydrated(page);
  const unfiltered = await resultCount(page, lang);
  await filters(page, lang).getByRole("combobox", { name: t.sort, exact: true }).selectOption("popular");
  await expect(page).toHaveURL((url) => url.searchParams.get("sort") === "popular");
  await rendered(page, lang, { sort: "popular" });
  await radio(page, lang, t.bpm, t.slow).check();
  await expect(page).toHaveURL((url) => url.searchParams.get("bpm") === "60-90" || url.searchParams.get("bpm_start") === "60");
  await rendered(page, lang, { sort: "popular", bpm_start: "60", bpm_end: "90" });
  await radio(page, lang, t.type, t.bgm).check();
  await expect(page).toHaveURL((url) => hasSlowBgm(url) && url.searchParams.get("sort") === "popular");
  await rendered(page, lang, { sort: "popular", bpm_start: "60", bpm_end: "90", audioType: "bgm" });
  const filtered = await resultCount(page, lang);
  expect(filtered).toBeLessThan(unfiltered);

  await filters(page, lang).getByRole("link", { name: t.reset, exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/search/audio" && url.search === "?keywords=piano");
  await rendered(page, lang, { keywords: "piano", sort: null, bpm_start: null, bpm_end: null, audioType: null });
  await expectCount(page, lang, unfiltered);
  await expectDefaultFilters(page, lang);

  // The next change starts from the defaults: no filter left over from before the reset.
  await radio(page, lang, t.price, t.pricePaid).check();
  await expect(page).toHaveURL((url) => url.searchParams.get("price") === "1");
  const params = new URL(page.url()).searchParams;
  expect({
    sort: params.get("sort") ?? "accuracy",
    audioType: params.get("audioType") ?? "all",
    bpm: params.get("bpm") ?? "",
    bpm_start: params.get("bpm_start"),
  }).toEqual({ sort: "accuracy", audioType: "all", bpm: "", bpm_start: null });
});

test("Back after Reset shows the filtered search with its choices again", async ({ page }) => {
  const lang = "en";
  const t = T[lang];
  await openIn(page, q("/search/audio", { keywords: "piano", bpm: "60-90", audioType: "bgm" }), lang);
  await hydrated(page);
  const filtered = await resultCount(page, lang);
  await expect(radio(page, lang, t.bpm, t.slow)).toBeChecked();
  await expect(radio(page, lang, t.type, t.bgm)).toBeChecked();
  await filters(page, lang).getByRole("link", { name: t.reset, exact: true }).click();
  await expect(page).toHaveURL((url) => url.search === "?keywords=piano");
  await rendered(page, lang, { bpm_start: null, bpm_end: null, audioType: null });
  const unfiltered = await resultCount(page, lang);
  expect(unfiltered).toBeGreaterThan(filtered);
  await page.goBack();
  await expect(page).toHaveURL((url) => hasSlowBgm(url));
  await rendered(page, lang, { bpm_start: "60", bpm_end: "90", audioType: "bgm" });
  await expectCount(page, lang, filtered);
  await expect(radio(page, lang, t.bpm, t.slow)).toBeChecked();
  await expect(radio(page, lang, t.type, t.bgm)).toBeChecked();
  await page.goForward();
  await expect(page).toHaveURL((url) => url.search === "?keywords=piano");
  await rendered(page, lang, { bpm_start: null, bpm_end: null, audioType: null });
  await expectCount(page, lang, unfiltered);
  await expectDefaultFilters(page, lang);
});

test.describe("search filters without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const lang of ["en", "ko"] as const) {
    test(`Apply filters reloads the page with the filter in ${lang}, Reset clears it`, async ({ page }) => {
      const t = T[lang];
      await openIn(page, q("/search/audio", { keywords: t.keyword }), lang);
      const unfiltered = await resultCount(page, lang);
      await radio(page, lang, t.bpm, t.slow).check();
      await radio(page, lang, t.type, t.bgm).check();
      // Nothing happens before the form is submitted.
      await page.waitForTimeout(300);
      await expect(page).toHaveURL((url) => url.search === `?${new URLSearchParams({ keywords: t.keyword })}`);
      await filters(page, lang).getByRole("button", { name: t.apply, exact: true }).click();
      await expect(page).toHaveURL(
        (url) => url.pathname === "/search/audio" && url.searchParams.get("keywords") === t.keyword && hasSlowBgm(url),
      );
      const filtered = await resultCount(page, lang);
      expect(filtered).toBeGreaterThan(0);
      expect(filtered).toBeLessThan(unfiltered);
      await expectSlowMusicCards(page, lang);
      await expect(radio(page, lang, t.bpm, t.slow)).toBeChecked();
      await expect(radio(page, lang, t.type, t.bgm)).toBeChecked();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.resultsFor(t.keyword));

      await filters(page, lang).getByRole("link", { name: t.reset, exact: true }).click();
      await expect(page).toHaveURL((url) => url.pathname === "/search/audio" && [...url.searchParams.keys()].join() === "keywords");
      expect(new URL(page.url()).searchParams.get("keywords")).toBe(t.keyword);
      await expectCount(page, lang, unfiltered);
      await expectDefaultFilters(page, lang);
    });
  }

  test("the header search and paging work without scripts", async ({ page }) => {
    const t = T.ko;
    await openIn(page, "/", "ko");
    await page.getByRole("search").getByRole("searchbox", { name: t.searchBox, exact: true }).fill(t.music);
    await page.getByRole("search").getByRole("button", { name: t.searchButton, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/search/all" && url.searchParams.get("keywords") === t.music);
    const total = await resultCount(page, "ko");
    expect(total).toBeGreaterThan(PAGE_SIZE);
    const first = await cardHrefs(page, "ko");
    await page
      .getByRole("navigation", { name: t.pages, exact: true })
      .getByRole("link", { name: t.page(2), exact: true })
      .click();
    await expect(page).toHaveURL((url) => url.searchParams.get("page") === "2" && url.searchParams.get("keywords") === t.music);
    const second = await cardHrefs(page, "ko");
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((h) => first.includes(h))).toEqual([]);
  });
});

for (const lang of ["en", "ko"] as const) {
  test(`no results in ${lang}: the message and recommended keywords that do find something`, async ({ page }) => {
    const t = T[lang];
    await openIn(page, q("/search/all", { keywords: "zzqqxx" }), lang);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.resultsFor("zzqqxx"));
    await expectCount(page, lang, 0);
    await expect(page.getByText(t.noResults("zzqqxx"), { exact: true })).toBeVisible();
    await expect(grid(page, lang)).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: t.pages, exact: true })).toHaveCount(0);
    for (const tab of ["all", "audio", "video"] as const) expect(await tabBadge(page, lang, tab)).toBe(0);
    const recommended = chips(page, t.recommended);
    await expect(recommended.first()).toBeVisible();
    const keyword = ((await recommended.first().textContent()) ?? "").trim();
    expect(keyword).not.toBe("");
    await expectAccessible(page);

    await recommended.first().click();
    await expect(page).toHaveURL((url) => url.pathname === "/search/all" && url.searchParams.get("keywords") === keyword);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.resultsFor(keyword));
    expect(await resultCount(page, lang)).toBeGreaterThan(0);
  });

  test(`a typo in ${lang}: "pianno" shows the results for "piano"`, async ({ page }) => {
    const t = T[lang];
    await openIn(page, q("/search/all", { keywords: "piano" }), lang);
    const piano = await resultCount(page, lang);
    const pianoCards = await cardHrefs(page, lang);
    await expect(page.getByText(t.corrected("piano"), { exact: true })).toHaveCount(0);

    await page.goto(q("/search/all", { keywords: "pianno" }));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.resultsFor("pianno"));
    await expect(page.getByText(t.corrected("piano"), { exact: true })).toBeVisible();
    expect(piano).toBeGreaterThan(0);
    await expectCount(page, lang, piano);
    expect(await cardHrefs(page, lang)).toEqual(pianoCards);
    await expect(page.getByText(t.noResults("pianno"), { exact: true })).toHaveCount(0);
  });
}

test("Korean: a word with a particle (음악을) and initial consonants (ㅍㅇㄴ) find results", async ({ page }) => {
  const lang = "ko";
  await openIn(page, q("/search/all", { keywords: "음악" }), lang);
  const music = await resultCount(page, lang);
  expect(music).toBeGreaterThan(0);

  await page.goto(q("/search/all", { keywords: "음악을" }));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(T.ko.resultsFor("음악을"));
  await expect(page.getByText(T.ko.noResults("음악을"), { exact: true })).toHaveCount(0);
  await expectCount(page, lang, music);
  await expect(grid(page, lang).getByRole("listitem").filter({ hasText: "음악" }).first()).toBeVisible();

  await page.goto(q("/search/all", { keywords: "피아노" }));
  const piano = await cardHrefs(page, lang);
  await page.goto(q("/search/all", { keywords: "ㅍㅇㄴ" }));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(T.ko.resultsFor("ㅍㅇㄴ"));
  expect(await resultCount(page, lang)).toBeGreaterThan(0);
  // Everything 피아노 finds, ㅍㅇㄴ finds too.
  const choseong = await cardHrefs(page, lang);
  expect(piano.length).toBeGreaterThan(0);
  expect(piano.filter((h) => !choseong.includes(h))).toEqual([]);
  await expect(grid(page, lang).getByRole("listitem").filter({ hasText: "피아노" }).first()).toBeVisible();
});

for (const lang of ["en", "ko"] as const) {
  test(`the filtered audio search passes axe-core in ${lang}`, async ({ page }) => {
    const t = T[lang];
    await openIn(
      page,
      q("/search/audio", { keywords: t.keyword, bpm_start: "60", bpm_end: "90", audioType: "bgm", sort: "popular" }),
      lang,
    );
    await expect(radio(page, lang, t.bpm, t.slow)).toBeChecked();
    await expect(radio(page, lang, t.type, t.bgm)).toBeChecked();
    await expect(filters(page, lang).getByRole("combobox", { name: t.sort, exact: true })).toHaveValue("popular");
    await expectSlowMusicCards(page, lang);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.resultsFor(t.keyword));
    await expectAccessible(page);
  });
}
