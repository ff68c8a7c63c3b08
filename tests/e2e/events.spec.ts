import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * The events pages in both languages as a visitor sees them: the list (running first), a running event with its
 * coupon and the copy button, the event-ended page, and the test event the test-mode store shows on ?testYn=Y.
 * Every page passes axe-core and logs no console errors (fixtures).
 */
const TEXT = {
  en: {
    title: "Events",
    running: "Running events",
    ended: "Ended events",
    welcome: "20% off for new members",
    summer: "Summer audio festival",
    test: "[Test] Autumn promotion preview",
    copy: "Copy code",
    copied: "The coupon code WELCOME20 has been copied.",
    endedTitle: "This event has ended.",
    seeRunning: "See running events",
    footer: "Events",
  },
  ko: {
    title: "이벤트",
    running: "진행 중인 이벤트",
    ended: "종료된 이벤트",
    welcome: "신규 회원 20% 할인",
    summer: "여름 오디오 페스티벌",
    test: "[테스트] 가을 프로모션 미리보기",
    copy: "코드 복사",
    copied: "쿠폰 코드 WELCOME20가 복사되었습니다.",
    endedTitle: "종료된 이벤트입니다.",
    seeRunning: "진행 중인 이벤트 보기",
    footer: "이벤트",
  },
} as const;

for (const lang of ["en", "ko"] as const) {
  const t = TEXT[lang];

  test(`events list and a running event in ${lang}: coupon copied, axe-core clean`, async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await openIn(page, "/", lang);
    await page.locator("footer").getByRole("link", { name: t.footer, exact: true }).click();
    await expect(page).toHaveURL(/\/event$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.title);
    await expect(page).toHaveTitle(new RegExp(`^${t.title} \\| `));
    const running = page.getByRole("region", { name: t.running });
    const ended = page.getByRole("region", { name: t.ended });
    await expect(running.getByRole("link", { name: new RegExp(t.welcome) })).toBeVisible();
    await expect(ended.getByRole("link", { name: new RegExp(t.summer) })).toBeVisible();
    await expect(page.getByText(t.test)).toHaveCount(0);
    await expectAccessible(page);

    await running.getByRole("link", { name: new RegExp(t.welcome) }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.welcome);
    await expect(page.locator("img.event-image")).toHaveJSProperty("complete", true);
    expect(await page.locator("img.event-image").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    await expect(page.locator("code")).toHaveText("WELCOME20");
    await page.getByRole("button", { name: t.copy }).click();
    await expect(page.getByRole("status")).toHaveText(t.copied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("WELCOME20");
    await expectAccessible(page);
  });

  test(`the event-ended page and a test event in ${lang} pass axe-core`, async ({ page }) => {
    await openIn(page, "/event", lang);
    await page
      .getByRole("region", { name: t.ended })
      .getByRole("link", { name: new RegExp(t.summer) })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.endedTitle);
    await expect(page.getByText(t.summer)).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("link", { name: t.seeRunning }).click();
    await expect(page).toHaveURL(/\/event$/);

    // The e2e store runs the sandbox gateway (test mode): asked for, the test event is listed and opens.
    await page.goto("/event?testYn=Y");
    await page.getByRole("link", { name: new RegExp(t.test.replace(/[[\]]/g, "\\$&")) }).click();
    await expect(page).toHaveURL(/\/event\/\d+\?testYn=Y$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.test);
    await expectAccessible(page);
  });
}
