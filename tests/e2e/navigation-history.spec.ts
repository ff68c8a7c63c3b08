import { expect, test } from "@playwright/test";
import {
  backBeforeHydration,
  type Entry,
  firstDetail,
  follow,
  itemPages,
  MEMBER,
  REPRESENTATIVE,
  settled,
  signIn,
  visit,
  walked,
  walkHistory,
  walkIn,
} from "./navigation";

/**
 * Back, Forward and reload over the storefront and My page, in both languages (issue 24, point 6): every page a step
 * lands on hydrates without a React hydration error, console error or page error, and is never the service-error
 * page. The walk and its checks are in navigation.ts; the request flow and the webview are in
 * navigation-history-flows.spec.ts.
 */
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
      await walkHistory(page, lang, walked(lang, entries));

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
      await walkHistory(page, lang, walked(lang, entries));
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
      await walkHistory(page, lang, walked(lang, entries));
    });
  });
}
