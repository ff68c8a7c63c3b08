import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * The console's service modes and members pages as an operator uses them, in both languages: the home switched to
 * the service-stop notice and back from /admin/modes (the storefront home, served through the page micro-cache,
 * follows at once), then the demo member looked up and their licences seen. Every page passes axe-core.
 */
const TEXT = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    modes: "Service modes",
    stop: "Service-stop notice",
    normal: "Normal home",
    save: "Save the modes",
    saved: "The modes are saved. Every server shows them within a couple of seconds.",
    notice: "Service suspended. The VideoAsset Market service has been suspended. Thank you for using the market.",
    members: "Members and licences",
    membersNav: "Members",
    search: "E-mail, nickname or licence key",
    searchButton: "Search",
    licences: "Licences",
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    modes: "서비스 모드",
    stop: "서비스 중단 안내",
    normal: "일반 홈",
    save: "모드 저장",
    saved: "모드를 저장했습니다. 몇 초 안에 모든 서버에 반영됩니다.",
    notice: "서비스 운영 중단 안내. 비디오에셋 마켓 서비스가 중단되었습니다. 그동안 이용해 주셔서 감사합니다.",
    members: "회원 및 라이선스",
    membersNav: "회원",
    search: "이메일, 닉네임 또는 라이선스 키",
    searchButton: "검색",
    licences: "라이선스",
  },
} as const;

const DEMO_MEMBER = "member@example.com";
const DEMO_SERIAL = "VEDT-IND-0001-DEMO";

for (const lang of ["en", "ko"] as const) {
  const t = TEXT[lang];

  test(`console in ${lang}: home to service-stop and back, the demo member's licences, axe-core clean`, async ({ page }) => {
    // The normal home, rendered once and then served from the page micro-cache (an anonymous visitor's; each
    // worker process keeps its own, so a later request is a hit once it reaches a worker that rendered it).
    await openIn(page, "/", lang);
    await expect(page.locator("#best-video")).toBeVisible();
    await expect.poll(async () => (await page.request.get("/")).headers()["x-cache"], { intervals: [50] }).toBe("HIT");

    // Signed in straight to the modes (the console's sign-in comes back to `next`).
    await page.goto("/admin/login?next=%2Fadmin%2Fmodes");
    await page.getByLabel(t.email).fill("operator@example.com");
    await page.getByLabel(t.password).fill("market1234!");
    await page.getByRole("button", { name: t.signIn }).click();
    await expect(page).toHaveURL(/\/admin\/modes$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.modes);
    await expectAccessible(page);
    await page.getByRole("radio", { name: t.stop }).check();
    await page.getByRole("button", { name: t.save }).click();
    await expect(page.getByRole("status")).toHaveText(t.saved);
    await expectAccessible(page);

    // The storefront home shows the notice at once, not the cached normal home.
    await page.goto("/");
    const notice = page.locator(`img[src="/pictures/service-stop-${lang}.svg"]`);
    await expect(notice).toBeVisible();
    await expect(notice).toHaveAttribute("alt", t.notice);
    await expect(page.locator("#best-video")).toHaveCount(0);

    await page.goto("/admin/modes");
    await page.getByRole("radio", { name: t.normal }).check();
    await page.getByRole("button", { name: t.save }).click();
    await expect(page.getByRole("status")).toHaveText(t.saved);
    await page.goto("/");
    await expect(page.locator("#best-video")).toBeVisible();
    await expect(notice).toHaveCount(0);

    // The demo member and their licences.
    await page.goto("/admin/modes");
    await page.getByRole("link", { name: t.membersNav, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.members);
    await expectAccessible(page);
    await page.getByRole("searchbox", { name: t.search }).fill(DEMO_MEMBER);
    await page.getByRole("button", { name: t.searchButton }).click();
    await expect(page).toHaveURL(/q=member%40example\.com/);
    await page.getByRole("link", { name: DEMO_MEMBER, exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/members\/\d+$/);
    await expect(page.getByRole("heading", { level: 2, name: t.licences, exact: true })).toBeVisible();
    await expect(page.getByRole("cell", { name: DEMO_SERIAL, exact: true })).toBeVisible();
    await expectAccessible(page);
  });
}
