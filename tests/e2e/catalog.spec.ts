import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

type Lang = "en" | "ko";
type ContentType = "video" | "icon" | "audio" | "font" | "package";

const T = {
  en: {
    bestSellers: "Best sellers",
    vatIncluded: "VAT incl.",
    priceExVat: "Price (VAT excluded)",
    vat: "VAT (10%)",
    total: "Total (VAT included)",
    related: "Related items",
    bundle: "In this package",
    previewOf: (title: string) => `Preview of ${title}`,
    fontPreview: "Font preview",
    fontInput: "Type to preview (up to 100 characters)",
    pages: "Pages",
    next: "Next",
    previous: "Previous",
    page: (n: number) => `Page ${n}`,
    sort: "Sort",
    popular: "Most Popular",
    recent: "Most Recent",
    audio: "Audio",
    packageFilter: "Package categories",
    all: "All",
    packageType: "Package",
    music: "Background music",
    discontinued: "This content has been discontinued",
    addToCart: "Add to cart",
    items: (n: number) => `${n} items`,
    gone: (n: number) => `${n} discontinued`,
    fontApply: "Preview",
  },
  ko: {
    bestSellers: "베스트셀러",
    vatIncluded: "부가세 포함",
    priceExVat: "가격 (부가세 별도)",
    vat: "부가세 (10%)",
    total: "합계 (부가세 포함)",
    related: "관련 콘텐츠",
    bundle: "패키지 구성",
    previewOf: (title: string) => `${title} 미리 보기`,
    fontPreview: "글꼴 미리 보기",
    fontInput: "미리 볼 문장을 입력하세요 (최대 100자)",
    pages: "페이지",
    next: "다음",
    previous: "이전",
    page: (n: number) => `${n}페이지`,
    sort: "정렬",
    popular: "인기순",
    recent: "최신순",
    audio: "오디오",
    packageFilter: "패키지 카테고리",
    all: "전체",
    packageType: "패키지",
    music: "배경음악",
    discontinued: "판매가 중단된 콘텐츠입니다",
    addToCart: "장바구니 담기",
    items: (n: number) => `${n}개`,
    gone: (n: number) => `판매 중단 ${n}개`,
    fontApply: "미리 보기",
  },
} as const;

const CONTENT_TYPES: ContentType[] = ["video", "icon", "audio", "font", "package"];

/** Minor units from a formatted price ("$12.10" → 1210, "₩12,100" → 12100): every currency shown has fixed digits. */
const minorUnits = (text: string) => Number(text.replace(/\D/g, ""));

/** The text of one element, trimmed. */
const textOf = async (locator: Locator) => ((await locator.textContent()) ?? "").trim();

/**
 * Opens the landing of a type and follows the first best-seller card (optionally one matching `hasText`) to its
 * detail page, the way a visitor does. Answers what the card showed.
 */
async function openFromLanding(page: Page, type: ContentType, lang: Lang, hasText?: string) {
  await openIn(page, `/${type}`, lang);
  let cards = page.getByRole("list", { name: T[lang].bestSellers, exact: true }).getByRole("listitem");
  if (hasText) cards = cards.filter({ hasText });
  const card = cards.first();
  const link = card.getByRole("link");
  const href = await link.getAttribute("href");
  expect(href).toMatch(new RegExp(`^/contents/${type}\\?code=[A-Z]{2}\\d{7}$`));
  const title = await textOf(card.locator(".card-title"));
  const price = await textOf(card.locator(".price"));
  await link.click();
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === href);
  return { href: href as string, code: new URL(href as string, "http://x").searchParams.get("code") as string, title, price };
}

/** The schema.org Product data of a detail page. */
async function productData(page: Page) {
  const json = await page.locator('script[type="application/ld+json"]').textContent();
  return JSON.parse(json ?? "null") as { "@type": string; name: string; sku: string; offers: Record<string, string> };
}

/** The hrefs of the cards of a grid, in order. */
const cardHrefs = (grid: Locator) =>
  grid
    .getByRole("listitem")
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")));

test.describe("detail pages", () => {
  for (const lang of ["en", "ko"] as const) {
    for (const type of CONTENT_TYPES) {
      test(`${type} detail in ${lang}: title, price box with VAT, preview, related items, accessibility`, async ({ page }) => {
        const t = T[lang];
        // A paid item, so the price box shows the price, the VAT and the total.
        const card = await openFromLanding(page, type, lang, t.vatIncluded);
        const h1 = page.getByRole("heading", { level: 1 });
        await expect(h1).toHaveText(card.title);
        await expect(page).toHaveTitle(new RegExp(`^${card.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));

        // Price box: price + VAT (10 %, rounded) = total, and the total is what the card showed.
        const definitionAfter = (term: string) => page.locator(".price-box").getByRole("term").filter({ hasText: term }).locator("+ dd");
        for (const term of [t.priceExVat, t.vat, t.total]) await expect(page.getByRole("term").filter({ hasText: term })).toBeVisible();
        const price = minorUnits(await textOf(definitionAfter(t.priceExVat)));
        const vat = minorUnits(await textOf(definitionAfter(t.vat)));
        const total = minorUnits(await textOf(definitionAfter(t.total)));
        expect(price).toBeGreaterThan(0);
        expect(vat).toBe(Math.round(price / 10));
        expect(total).toBe(price + vat);
        expect(card.price).toContain(await textOf(definitionAfter(t.total)));
        // The item itself is on sale: the message appears only beside discontinued members of a package's contents.
        const everywhere = await page.getByText(t.discontinued).count();
        expect(everywhere).toBe(await page.locator("[aria-labelledby=bundle-h]").getByText(t.discontinued).count());
        await expect(page.getByRole("button", { name: t.addToCart, exact: true })).toBeVisible();
        // The product's structured data agrees with the price box.
        const ld = await productData(page);
        expect(ld).toMatchObject({ "@type": "Product", name: card.title, sku: card.code });
        expect(ld.offers).toEqual({
          "@type": "Offer",
          price: lang === "en" ? (total / 100).toFixed(2) : String(total),
          priceCurrency: lang === "en" ? "USD" : "KRW",
          availability: "https://schema.org/InStock",
        });

        // The preview that fits the type.
        const title = card.title;
        if (type === "video") {
          await expect(page.getByLabel(t.previewOf(title))).toHaveJSProperty("tagName", "VIDEO");
        } else if (type === "icon") {
          const img = page.getByRole("img", { name: t.previewOf(title) });
          await expect(img).toBeVisible();
          await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
        } else if (type === "audio") {
          await expect(page.locator("audio")).toHaveAttribute("aria-label", t.previewOf(title));
        } else if (type === "font") {
          await expect(page.getByRole("heading", { level: 2, name: t.fontPreview })).toBeVisible();
          await expect(page.getByRole("textbox", { name: t.fontInput })).toBeVisible();
          await expect(page.getByTestId("font-sample")).not.toBeEmpty();
        } else {
          await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^${t.bundle}`) })).toBeVisible();
          const bundle = page.getByRole("list", { name: t.bundle, exact: true });
          await expect(bundle.getByRole("listitem").first()).toBeVisible();
          const count = await bundle.getByRole("listitem").count();
          // Discontinued members are listed as such and counted apart from what the package still holds.
          const gone = await bundle.getByRole("listitem").filter({ hasText: t.discontinued }).count();
          await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^${t.bundle}`) })).toHaveText(
            `${t.bundle} · ${t.items(count - gone)}${gone ? ` (${t.gone(gone)})` : ""}`,
          );
          // Bundled items are items of their own, never packages.
          for (const href of await cardHrefs(bundle)) expect(href).toMatch(/^\/contents\/(video|icon|audio|font)\?code=/);
        }

        // Related items: same type, never the item itself.
        await expect(page.getByRole("heading", { level: 2, name: t.related })).toBeVisible();
        const related = page.getByRole("list", { name: t.related, exact: true });
        await expect(related.getByRole("listitem").first()).toBeVisible();
        const relatedHrefs = await cardHrefs(related);
        expect(relatedHrefs.length).toBeGreaterThan(0);
        expect(relatedHrefs.length).toBeLessThanOrEqual(8);
        for (const href of relatedHrefs) expect(href).toMatch(new RegExp(`^/contents/${type}\\?code=`));
        expect(relatedHrefs).not.toContain(card.href);

        await expectAccessible(page);
      });
    }
  }
});

test("audio preview: play, pause and seek with the keyboard", async ({ page }) => {
  // Background music: a 12-second loop, long enough to play and to seek in.
  await openFromLanding(page, "audio", "en", T.en.music);
  const play = page.getByRole("button", { name: "Play", exact: true });
  await expect(play).toBeVisible({ timeout: 15_000 });
  await expect(play).toHaveAttribute("aria-pressed", "false");
  const time = page.getByTestId("audio-time");
  await expect(time).toHaveText(/^0:00 \/ 0:(0[5-9]|[1-5]\d)$/);
  // Once wavesurfer is ready the native controls are gone (the element stays, driven by wavesurfer).
  await expect(page.locator("audio")).not.toHaveAttribute("controls", /.*/);

  await play.click();
  const pause = page.getByRole("button", { name: "Pause", exact: true });
  await expect(pause).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => page.locator("audio").evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 10_000 }).toBeGreaterThan(0);
  await expect(time).not.toHaveText(/^0:00 \//, { timeout: 10_000 });
  await pause.click();
  await expect(play).toHaveAttribute("aria-pressed", "false");
  expect(await page.locator("audio").evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);

  // Seeking with the keyboard: ten steps of 0.1 s move one second; End goes to the end.
  const seek = page.getByRole("slider", { name: "Seek" });
  const before = await page.locator("audio").evaluate((a: HTMLAudioElement) => a.currentTime);
  const shownBefore = await textOf(time);
  await seek.focus();
  for (let i = 0; i < 25; i++) await seek.press("ArrowRight");
  await expect.poll(() => page.locator("audio").evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(before + 2);
  await expect(time).not.toHaveText(shownBefore);
  await seek.press("Home");
  await expect(time).toHaveText(/^0:00 \//);
  await expect.poll(() => page.locator("audio").evaluate((a: HTMLAudioElement) => a.currentTime)).toBeLessThan(0.5);
  await seek.press("End");
  await expect.poll(async () => new Set((await textOf(time)).split(" / ")).size, { message: "time at the end" }).toBe(1);
  const [shown, length] = (await textOf(time)).split(" / ");
  await expect(seek).toHaveAttribute("aria-valuetext", `${shown} / ${length}`);
});

test("font preview: at most 100 characters, live sample text, WOFF2 subset of the typed text", async ({ page }) => {
  const { code } = await openFromLanding(page, "font", "en");
  const input = page.getByRole("textbox", { name: T.en.fontInput });
  const sample = page.getByTestId("font-sample");
  await expect(input).toHaveAttribute("maxlength", "200");

  await input.fill("x".repeat(120));
  await expect(input).toHaveValue("x".repeat(100));
  await expect(page.getByText("100/100", { exact: true })).toBeVisible();
  await expect(sample).toHaveText("x".repeat(100));

  const text = "안녕 Hello";
  const subset = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === "/api/v1/font/subset" && url.searchParams.get("text") === text;
  });
  await input.fill(text);
  await expect(sample).toHaveText(text);
  await expect(page.getByText("8/100", { exact: true })).toBeVisible();
  const response = await subset;
  expect(new URL(response.url()).searchParams.get("contents_code")).toBe(code);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("font/woff2");
  const body = await response.body();
  expect(body.subarray(0, 4).toString("latin1")).toBe("wOF2");
  // The sample switches to the freshly loaded subset face.
  await expect(sample).toHaveCSS("font-family", new RegExp(`^"?preview-${code}-\\d+"?, `));
  expect(await page.evaluate((t) => document.fonts.check(`16px "${t}"`, "안녕"), `preview-${code}`)).toBe(true);
});

test.describe("lists without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const lang of ["en", "ko"] as const) {
    test(`paging and sorting /list/audio/all in ${lang}`, async ({ page }) => {
      const t = T[lang];
      await openIn(page, "/list/audio/all", lang);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.audio);
      const grid = page.getByRole("list", { name: t.audio, exact: true });
      const pages = page.getByRole("navigation", { name: t.pages, exact: true });
      await expect(grid.getByRole("listitem")).toHaveCount(24);
      await expect(pages.getByRole("link", { name: t.page(1), exact: true })).toHaveAttribute("aria-current", "page");
      await expect(pages.getByText(t.previous, { exact: true })).toHaveAttribute("aria-disabled", "true");
      const first = await cardHrefs(grid);

      await pages.getByRole("link", { name: t.next, exact: true }).click();
      await expect(page).toHaveURL((url) => url.pathname === "/list/audio/all" && url.searchParams.get("page") === "2");
      await expect(pages.getByRole("link", { name: t.page(2), exact: true })).toHaveAttribute("aria-current", "page");
      await expect(pages.getByRole("link", { name: t.page(1), exact: true })).not.toHaveAttribute("aria-current", /.*/);
      await expect(pages.locator('[aria-current="page"]')).toHaveCount(1);
      await expect(pages.getByRole("link", { name: t.previous, exact: true })).toHaveAttribute("href", /page=1/);
      const second = await cardHrefs(grid);
      expect(second.length).toBeGreaterThan(0);
      expect(second.filter((h) => first.includes(h))).toEqual([]);
      for (const href of second) expect(href).toMatch(/^\/contents\/audio\?code=AU\d{7}$/);

      const sort = page.getByRole("list", { name: t.sort, exact: true });
      await expect(sort.getByRole("link", { name: t.popular, exact: true })).toHaveAttribute("aria-current", "true");
      await sort.getByRole("link", { name: t.recent, exact: true }).click();
      await expect(page).toHaveURL(
        (url) => url.pathname === "/list/audio/all" && url.searchParams.get("sort") === "recent" && url.searchParams.get("page") === "1",
      );
      await expect(sort.getByRole("link", { name: t.recent, exact: true })).toHaveAttribute("aria-current", "true");
      await expect(sort.getByRole("link", { name: t.popular, exact: true })).not.toHaveAttribute("aria-current", /.*/);
      await expect(pages.getByRole("link", { name: t.page(1), exact: true })).toHaveAttribute("aria-current", "page");
      const recent = await cardHrefs(grid);
      expect(recent).toHaveLength(24);
      expect(recent).not.toEqual(first);

      // Paging keeps the order.
      await pages.getByRole("link", { name: t.next, exact: true }).click();
      await expect(page).toHaveURL((url) => url.searchParams.get("sort") === "recent" && url.searchParams.get("page") === "2");
      const recentSecond = await cardHrefs(grid);
      expect(recentSecond.filter((h) => recent.includes(h))).toEqual([]);
      // (axe-core needs scripts: the list pages are checked for accessibility with them, below.)
    });
  }
});

for (const lang of ["en", "ko"] as const) {
  test(`the package list filters by category in ${lang}`, async ({ page }) => {
    const t = T[lang];
    await openIn(page, "/list/package/all", lang);
    const filter = page.getByRole("navigation", { name: t.packageFilter, exact: true });
    await expect(filter.getByRole("link", { name: t.all, exact: true })).toHaveAttribute("aria-current", "page");
    const status = page.getByRole("status");
    const totalAll = Number((await textOf(status)).replace(/\D/g, ""));
    const chip = filter.getByRole("link").nth(1);
    const name = await textOf(chip);
    const href = (await chip.getAttribute("href")) as string;
    expect(href).toMatch(/^\/list\/package\/\d+$/);

    await chip.click();
    await expect(page).toHaveURL((url) => url.pathname === href);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(filter.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(filter.getByRole("link", { name: t.all, exact: true })).not.toHaveAttribute("aria-current", /.*/);
    const grid = page.getByRole("list", { name, exact: true });
    const cards = grid.getByRole("listitem");
    await expect(cards.first()).toBeVisible();
    const count = Number((await textOf(status)).replace(/\D/g, ""));
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(totalAll);
    await expect(cards).toHaveCount(Math.min(count, 24));
    for (const card of await cardHrefs(grid)) expect(card).toMatch(/^\/contents\/package\?code=PA\d{7}$/);
    for (const meta of await cards.locator(".card-meta").allTextContents()) expect(meta.trim()).toBe(t.packageType);
    await expectAccessible(page);

    // The first package of the category is filed under that category.
    await cards.first().getByRole("link").click();
    await expect(page).toHaveURL(/\/contents\/package\?code=PA\d{7}$/);
    await expect(page.getByRole("definition").getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  });
}

test("video preview: poster, MP4 clip, playback advances", async ({ page }) => {
  const { title } = await openFromLanding(page, "video", "en");
  const video = page.getByLabel(T.en.previewOf(title));
  await expect(video).toHaveJSProperty("tagName", "VIDEO");
  await expect(video).toHaveAttribute("poster", /\S/);
  await expect(video).toHaveAttribute("src", /\.mp4$/);
  // The poster is served.
  const poster = (await video.getAttribute("poster")) as string;
  expect((await page.request.get(poster)).status()).toBe(200);

  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await video.evaluate((v: HTMLVideoElement) => v.play());
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
  const state = await video.evaluate((v: HTMLVideoElement) => ({ w: v.videoWidth, h: v.videoHeight, error: v.error?.code ?? null }));
  expect(state).toEqual({ w: 640, h: 360, error: null });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the font preview form reloads the page with the text, cut to 100 characters", async ({ page }) => {
    const { code } = await openFromLanding(page, "font", "ko");
    const t = T.ko;
    const input = page.getByRole("textbox", { name: t.fontInput });
    const text = "다람쥐 Hello 123";
    const subset = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === "/api/v1/font/subset" && url.searchParams.get("text") === text;
    });
    await input.fill(text);
    await page.getByRole("button", { name: t.fontApply, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/contents/font" && url.searchParams.get("code") === code);
    expect(new URL(page.url()).searchParams.get("text")).toBe(text);
    await expect(page.getByTestId("font-sample")).toHaveText(text);
    await expect(input).toHaveValue(text);
    const response = await subset;
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("font/woff2");

    // A longer text in the address is cut to 100 characters, counted as characters (not UTF-16 units).
    const long = "가😀".repeat(60);
    await page.goto(`/contents/font?code=${code}&text=${encodeURIComponent(long)}`);
    await expect(page.getByTestId("font-sample")).toHaveText([...long].slice(0, 100).join(""));
    await expect(page.getByText("100/100", { exact: true })).toBeVisible();
  });

  test("a page past the end goes to the last page; a detail page under the wrong type moves to its type", async ({ page }) => {
    await openIn(page, "/list/audio/all?page=999&sort=recent", "en");
    const t = T.en;
    const pages = page.getByRole("navigation", { name: t.pages, exact: true });
    await expect(page).toHaveURL((url) => url.searchParams.get("sort") === "recent" && url.searchParams.get("page") !== "999");
    const last = Number(new URL(page.url()).searchParams.get("page"));
    expect(last).toBeGreaterThan(1);
    await expect(pages.getByRole("link", { name: t.page(last), exact: true })).toHaveAttribute("aria-current", "page");
    await expect(pages.getByText(t.next, { exact: true })).toHaveAttribute("aria-disabled", "true");
    await expect(pages.getByRole("link", { name: t.next })).toHaveCount(0);
    const count = Number((await textOf(page.getByRole("status"))).replace(/\D/g, ""));
    await expect(page.getByRole("list", { name: t.audio, exact: true }).getByRole("listitem")).toHaveCount(count - (last - 1) * 24);

    const href = (await page.getByRole("list", { name: t.audio, exact: true }).getByRole("link").first().getAttribute("href")) as string;
    await page.goto(href.replace("/contents/audio", "/contents/icon"));
    await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === href);
    await page.goto("/contents/audio?code=not-a-code");
    await expect(page).toHaveURL(/\/404$/);
  });
});

test("a discontinued item bundled in a package says so and cannot be bought", async ({ page }) => {
  // Lists hide discontinued items; packages still show what they bundled. Find such a package through the API.
  const packages = (await (await page.request.get("/api/v1/packages?limit=100")).json()).data.list as { code: string }[];
  let found: { pkg: string; item: { code: string; type: string; title: string } } | undefined;
  for (const { code } of packages) {
    const detail = (await (await page.request.get(`/api/v1/contents/${code}`)).json()).data;
    const item = (detail.bundle as { code: string; type: string; title: string; discontinued: boolean }[]).find((b) => b.discontinued);
    if (item) {
      found = { pkg: code, item };
      break;
    }
  }
  expect(found, "a package bundling a discontinued item").toBeDefined();
  const { pkg, item } = found as NonNullable<typeof found>;

  for (const lang of ["en", "ko"] as const) {
    const t = T[lang];
    await openIn(page, `/contents/package?code=${pkg}`, lang);
    const href = `/contents/${item.type}?code=${item.code}`;
    await page.getByRole("list", { name: t.bundle, exact: true }).locator(`a[href="${href}"]`).click();
    await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === href);
    await expect(page.getByRole("status").filter({ hasText: t.discontinued })).toBeVisible();
    await expect(page.getByRole("button", { name: t.addToCart, exact: true })).toHaveCount(0);
    expect((await productData(page)).offers.availability).toBe("https://schema.org/Discontinued");
    // Related items are active items, never the item itself.
    const related = page.getByRole("list", { name: t.related, exact: true });
    if (await related.count()) expect(await cardHrefs(related)).not.toContain(href);
    await expectAccessible(page);
  }
});

test("a list of another space's taxonomy id is not shown under this space", async ({ page }) => {
  // /list/audio/{id of a video category} answers 200 with the video category's name as the audio list's
  // heading and "0 items": the loader checks that the taxonomy id exists, not that it belongs to the space.
  await openIn(page, "/list/video/all", "en");
  // The list's own category chips.
  const chip = page.getByRole("main").getByRole("navigation", { name: "Filter by category", exact: true }).getByRole("link").nth(1);
  const name = await textOf(chip);
  const href = (await chip.getAttribute("href")) as string;
  expect(href).toMatch(/^\/list\/video\/\d+$/);
  const id = href.split("/").pop() as string;
  await page.goto(`/list/audio/${id}`);
  // Either a 404 or the list in its own space would do; a video category inside the audio list would not.
  await expect(page).toHaveURL((url) => url.pathname === "/404" || url.pathname === `/list/video/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(name);
});

test("font preview: editing a 100-character text with emoji keeps whole characters", async ({ page }) => {
  // The input cuts its value to 100 UTF-16 code units (slice), while the page and the API count 100 characters:
  // after opening a 100-character text with emoji from the address (what the form without scripts makes) one
  // Backspace leaves half an emoji, the counter reads 51/100, and encodeURIComponent throws "URI malformed".
  const { code } = await openFromLanding(page, "font", "en");
  const text = `a${"😀".repeat(99)}`;
  await page.goto(`/contents/font?code=${code}&text=${encodeURIComponent(text)}`);
  const input = page.getByRole("textbox", { name: T.en.fontInput });
  await expect(input).toHaveValue(text);
  await expect(page.getByText("100/100", { exact: true })).toBeVisible();
  const edited = [...text].slice(0, 99).join("");
  const subset = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === "/api/v1/font/subset" && url.searchParams.get("text") === edited;
  });
  await input.press("End");
  await input.press("Backspace");
  await expect(input).toHaveValue(edited);
  await expect(page.getByText("99/100", { exact: true })).toBeVisible();
  expect((await subset).status()).toBe(200);
});

test("a package with a discontinued member is sold for what remains, in both languages (issue 18, point 11)", async ({ page }) => {
  // The demo catalog bundles a few discontinued items; find a package holding one and something still on sale.
  const packages = (await (await page.request.get("/api/v1/packages?limit=100")).json()).data.list as { code: string }[];
  let pkg: string | undefined;
  for (const { code } of packages) {
    const detail = (await (await page.request.get(`/api/v1/contents/${code}`)).json()).data;
    if (detail.price_type === "paid" && !detail.discontinued && detail.price < detail.list_price) {
      pkg = code;
      break;
    }
  }
  expect(pkg, "a package priced below its own price").toBeDefined();
  const note = {
    en: (price: string) => `Priced for the items that remain (the whole package: ${price}, VAT excluded).`,
    ko: (price: string) => `남은 콘텐츠만큼 값을 낮췄습니다(패키지 전체 ${price}, 부가세 별도).`,
  };
  for (const lang of ["en", "ko"] as const) {
    const t = T[lang];
    const detail = (await (await page.request.get(`/api/v1/contents/${pkg}`, { headers: { language: lang } })).json()).data as {
      price: number;
      list_price: number;
      currency: "KRW" | "USD";
    };
    const money = (minor: number) =>
      new Intl.NumberFormat(lang === "ko" ? "ko-KR" : "en-US", {
        style: "currency",
        currency: detail.currency,
        minimumFractionDigits: detail.currency === "USD" ? 2 : 0,
        maximumFractionDigits: detail.currency === "USD" ? 2 : 0,
      }).format(detail.currency === "USD" ? minor / 100 : minor);
    await openIn(page, `/contents/package?code=${pkg}`, lang);
    const box = page.locator(".detail-info .price-box").first();
    await expect(box).toContainText(money(detail.price));
    await expect(page.getByText(note[lang](money(detail.list_price)), { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: t.addToCart, exact: true })).toBeVisible();
    const bundle = page.locator("[aria-labelledby=bundle-h]");
    await expect(bundle.getByRole("listitem").filter({ hasText: t.discontinued }).first()).toBeVisible();
    await expectAccessible(page);
  }
});
