import type { Route } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * Spec section 8: a chunk-loading failure is a ChunkLoadError after a 120 s timeout. Here the notices page's route
 * module never arrives (its request is held); the wait is shortened for the test through the test-only window
 * setting (production waits 120 s, CHUNK_LOAD_TIMEOUT_MS). The visitor is told, in their language, with a reload
 * button that loads the page they were going to.
 */
const NOTICE_MODULE = /\/build\/routes\/_store\.notice\._index-[^/]+\.js$/;
const TEXT = {
  en: { link: "Notices", title: "The page could not be loaded", reload: "Reload the page", heading: "Notices" },
  ko: { link: "공지사항", title: "페이지를 불러오지 못했습니다", reload: "페이지 다시 불러오기", heading: "공지사항" },
} as const;

for (const lang of ["en", "ko"] as const) {
  test(`a page module that never arrives is a ChunkLoadError with a reload (${lang})`, async ({ page, consoleErrors }) => {
    const text = TEXT[lang];
    await page.addInitScript(() => {
      (window as unknown as { __TEST_CHUNK_LOAD_TIMEOUT_MS__: number }).__TEST_CHUNK_LOAD_TIMEOUT_MS__ = 2_000;
    });
    await openIn(page, "/video", lang);
    await page.waitForFunction(() => "__remixRouter" in window);
    // Held while `hold` (never answered, as a stalled network would); afterwards the reload's requests go through.
    const held: Route[] = [];
    let hold = true;
    await page.route(NOTICE_MODULE, (route) => (hold ? void held.push(route) : route.continue()));
    await page.locator("footer").getByRole("link", { name: text.link, exact: true }).click();
    const dialog = page.getByRole("alertdialog", { name: text.title });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    expect(held.length).toBeGreaterThan(0);
    await expect(dialog).toContainText("ChunkLoadError");
    await expect(dialog.getByRole("button", { name: text.reload })).toBeFocused();
    // Still on the page the visitor was on: nothing else happened.
    await expect(page).toHaveURL(/\/video$/);
    await expectAccessible(page);
    // The one console error is the ChunkLoadError itself, logged for support.
    expect(consoleErrors.filter((e) => e.includes("ChunkLoadError"))).toHaveLength(1);
    consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !e.includes("ChunkLoadError")));

    hold = false;
    await dialog.getByRole("button", { name: text.reload }).click();
    await expect(page).toHaveURL(/\/notice$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text.heading);
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
  });
}

test("a slow navigation whose modules are here is not a ChunkLoadError, however short the wait", async ({ page }) => {
  await openIn(page, "/video", "en");
  await page.waitForFunction(() => "__remixRouter" in window);
  const footer = page.locator("footer");
  // Once visited, the notices page's module is here; then only its data is slow (held 1.5 s).
  await footer.getByRole("link", { name: "Notices", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notices");
  await page.goBack();
  await expect(page).toHaveURL(/\/video$/);
  // From now on the wait is 1 ms: any navigation still under way is checked at once.
  await page.evaluate(() => {
    (window as unknown as { __TEST_CHUNK_LOAD_TIMEOUT_MS__: number }).__TEST_CHUNK_LOAD_TIMEOUT_MS__ = 1;
  });
  await page.route(/\/notice\.data(\?|$)/, async (route) => {
    await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });
  await footer.getByRole("link", { name: "Notices", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notices");
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
});
