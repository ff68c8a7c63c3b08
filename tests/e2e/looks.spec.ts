import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * Issue 14: the demo catalog looks like a real store, in Chromium, in both languages, at desktop and phone widths,
 * with axe-core: every card picture loads (no grey placeholders), video clips load and play, audio shows its
 * waveform, font cards load their own font, best-seller rows are whole rows, and no banner headline repeats.
 */
type Lang = "en" | "ko";
const WIDTHS = [1280, 390] as const;
const SPACES = ["video", "icon", "audio", "font", "package", "benefit"] as const;

/** Every card picture on the page has loaded (a broken or missing one has no natural width). */
async function expectPicturesLoaded(page: Page) {
  const thumbs = page.locator(".card-thumb");
  await expect(thumbs.first()).toBeVisible();
  await page.evaluate(() => {
    for (const img of document.querySelectorAll<HTMLImageElement>(".card-thumb img")) img.loading = "eager";
  });
  await expect
    .poll(() =>
      page
        .locator(".card-thumb img")
        .evaluateAll((imgs) => (imgs as HTMLImageElement[]).filter((i) => !i.complete || i.naturalWidth === 0).length),
    )
    .toBe(0);
  // No card falls back to a glyph on a blank tile.
  await expect(page.locator(".thumb-glyph")).toHaveCount(0);
}

/** Each row of cards is whole: as many cards as columns times rows, never a lone column left empty. */
async function expectWholeRows(rows: Locator) {
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const lefts = await rows
      .nth(i)
      .locator(":scope > li")
      .evaluateAll((items) => items.map((el) => Math.round(el.getBoundingClientRect().left)));
    const columns = new Set(lefts).size;
    const template = await rows.nth(i).evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
    expect(columns, `row ${i}: ${lefts.join(",")}`).toBe(template);
    expect(lefts.length % columns, `row ${i}: ${lefts.length} cards in ${columns} columns`).toBe(0);
  }
}

async function expectHeadlinesOnce(page: Page) {
  const headlines = await page.locator(".banner-text strong").allTextContents();
  expect(new Set(headlines).size, headlines.join(" | ")).toBe(headlines.length);
  const h1 = (await page.locator("h1").first().textContent())?.trim();
  expect(headlines).not.toContain(h1);
}

for (const lang of ["ko", "en"] as Lang[]) {
  for (const width of WIDTHS) {
    test.describe(`${lang} at ${width} px`, () => {
      test.use({ viewport: { width, height: 900 } });

      test("home: real pictures, whole best-seller rows, each headline once", async ({ page }) => {
        await openIn(page, "/", lang);
        await expectPicturesLoaded(page);
        await expectWholeRows(page.locator(".card-row"));
        await expectHeadlinesOnce(page);
        await expect(page.locator(".card-audio .card-thumb img[src$='waveform.svg']").first()).toBeVisible();
        await expectAccessible(page);
      });

      for (const space of SPACES) {
        test(`${space} landing: real media, whole rows, each headline once`, async ({ page }) => {
          await openIn(page, `/${space}`, lang);
          await expectPicturesLoaded(page);
          await expectWholeRows(page.locator(".card-row"));
          await expectHeadlinesOnce(page);
          if (space === "font") {
            // Each font card's sample is set in its own font, loaded from the store's subset.
            const family = await page
              .locator(".card-font .font-sample > span")
              .first()
              .evaluate((el) => getComputedStyle(el).fontFamily);
            const face = /"?(card-FO\d+)"?/.exec(family)?.[1] ?? "";
            expect(face).not.toBe("");
            await expect
              .poll(() =>
                page.evaluate(
                  (f) =>
                    document.fonts.check(`16px "${f}"`) &&
                    [...document.fonts].some((x) => x.family.replaceAll('"', "") === f && x.status === "loaded"),
                  face,
                ),
              )
              .toBe(true);
          }
          if (space === "audio") await expect(page.locator(".card-audio img[src$='waveform.svg']").first()).toBeVisible();
          await expectAccessible(page);
        });
      }
    });
  }

  test(`${lang}: a video detail plays its clip, and a video card plays it when pointed at`, async ({ page }) => {
    await openIn(page, "/video", lang);
    const card = page.locator(".card-video .card-link").first();
    await card.hover();
    const cardClip = page.locator(".card-video video.card-clip").first();
    await expect(cardClip).toHaveAttribute("src", /\/media\/clips\/[a-z-]+\.mp4$/);
    await expect.poll(() => cardClip.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
    await card.click();
    await expect(page).toHaveURL(/\/contents\/video\?code=/);
    const video = page.locator("video.preview-media");
    const src = (await video.getAttribute("src")) ?? "";
    const clip = await page.request.get(src);
    expect(clip.status()).toBe(200);
    expect(clip.headers()["content-type"]).toContain("video/mp4");
    expect((await clip.body()).subarray(4, 8).toString("ascii")).toBe("ftyp");
    await expect(video).toHaveAttribute("poster", /\/media\/scenes\/[a-z-]+\.png$/);
    await video.evaluate((v: HTMLVideoElement) => v.play());
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.2);
    expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([640, 360]);
    await expectAccessible(page);
  });

  test(`${lang}: an audio detail draws the waveform from its precomputed peaks`, async ({ page }) => {
    await openIn(page, "/audio", lang);
    const peaks = page.waitForResponse((r) => r.url().endsWith(".peaks.json") && r.status() === 200);
    await page.locator(".card-audio .card-link").first().click();
    await expect(page).toHaveURL(/\/contents\/audio\?code=/);
    await peaks;
    // The player is ready from the peaks alone (their length gives the duration) and draws them.
    await expect(page.locator(".audio-player")).toHaveAttribute("data-ready", "true");
    await expect(page.getByTestId("audio-time")).toHaveText(/^0:00 \/ 0:0[1-9]|^0:00 \/ 0:1\d/);
    await expect
      .poll(() =>
        page.getByTestId("waveform").evaluate((el) => el.querySelector("div")?.shadowRoot?.querySelectorAll("canvas").length ?? 0),
      )
      .toBeGreaterThan(0);
    await expectAccessible(page);
  });
}

test("without JavaScript an audio detail shows its waveform picture with a name", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/audio?language=en");
  const href = await page.locator(".card-audio .card-link").first().getAttribute("href");
  await page.goto(href ?? "/");
  const still = page.locator("img.waveform-still");
  await expect(still).toHaveAttribute("alt", /^Waveform of /);
  expect(await still.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  await context.close();
});
