import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * The console's catalog in both languages as an operator uses it: adds an item with its uploaded file (a video in
 * English, an icon in Korean), watches the background job make its previews, finds it in the store's search with
 * its preview, discontinues it, and the store's item page then says so. Every console page passes axe-core.
 */
const TEXT = {
  en: {
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    add: "Add an item",
    type: "Type",
    file: "Media file",
    titleKo: "Title (Korean)",
    titleEn: "Title (English)",
    priceType: "Price type",
    submit: "Add the item",
    ready: "Previews ready",
    reason: "Reason (for the audit log)",
    discontinue: "Discontinue this item",
    discontinued: "The item was discontinued.",
    storeSays: "This content has been discontinued",
    catalog: "Catalog",
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    signIn: "로그인",
    add: "콘텐츠 등록",
    type: "유형",
    file: "미디어 파일",
    titleKo: "제목 (한국어)",
    titleEn: "제목 (영어)",
    priceType: "가격 유형",
    submit: "콘텐츠 등록",
    ready: "미리보기 준비 완료",
    reason: "사유 (감사 로그용)",
    discontinue: "이 콘텐츠 판매 중단",
    discontinued: "판매를 중단했습니다.",
    storeSays: "판매가 중단된 콘텐츠입니다",
    catalog: "콘텐츠 관리",
  },
} as const;

const CASES = {
  en: { type: "video", file: "harbor.mp4", title: "Ocelot harbor timelapse", titleKo: "오실롯 항구 타임랩스", poster: "poster.jpg" },
  ko: { type: "icon", file: "badge.png", title: "Narwhal badge icon", titleKo: "일각고래 배지 아이콘", poster: "picture.png" },
} as const;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-catalog-"));
function sample(name: string): string {
  const file = path.join(dir, name);
  if (fs.existsSync(file)) return file;
  const args = name.endsWith(".mp4")
    ? ["-f", "lavfi", "-i", "testsrc=s=320x180:d=2:r=12", "-c:v", "libx264", "-pix_fmt", "yuv420p", file]
    : ["-f", "lavfi", "-i", "color=c=0x7c3aed:s=128x128", "-frames:v", "1", file];
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);
  return file;
}

for (const lang of ["en", "ko"] as const) {
  const t = TEXT[lang];
  const c = CASES[lang];

  test(`an operator adds a ${c.type} with its file, finds it in search with its preview, and discontinues it (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openIn(page, "/", lang);
    // Straight to the catalog after sign-in (see the report: the `op` cookie's path /admin does not cover /admin.data).
    await page.goto("/admin/login?next=%2Fadmin%2Fcatalog");
    await page.getByLabel(t.email).fill("catalog@example.com");
    await page.getByLabel(t.password).fill("market1234!");
    await page.getByRole("button", { name: t.signIn }).click();
    await expect(page).toHaveURL(/\/admin\/catalog$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.catalog);
    await expectAccessible(page);
    await page.getByRole("main").getByRole("link", { name: t.add }).click();
    await expect(page).toHaveURL(/\/admin\/catalog\/new$/);
    await expectAccessible(page);

    await page.getByRole("combobox", { name: new RegExp(`^${t.type}`) }).selectOption(c.type);
    await page.getByLabel(t.file).setInputFiles(sample(c.file));
    await page.getByLabel(t.titleKo).fill(c.titleKo);
    await page.getByLabel(t.titleEn).fill(c.title);
    await page.getByLabel(t.priceType).selectOption("free");
    await page.getByRole("button", { name: t.submit }).click();
    await expect(page).toHaveURL(/\/admin\/catalog\/\d+$/);
    const id = /\/(\d+)$/.exec(page.url())?.[1];
    // The page follows the background job until the previews are made.
    await expect(page.getByTestId("media-job-state")).toContainText(t.ready, { timeout: 60_000 });
    const preview = page.locator(".catalog-media img, .catalog-media video").first();
    await expect(preview).toBeVisible();
    await expectAccessible(page);
    const code = (await page.getByRole("heading", { level: 1 }).textContent())?.match(/\(([A-Z]{2}\d{7})\)/)?.[1];
    expect(code).toBeTruthy();

    // The store's search finds it, with its preview.
    await page.goto(`/search/all?keywords=${encodeURIComponent(c.title.split(" ")[0])}`);
    const card = page.locator(`a[href*="code=${code}"]`).first();
    await expect(card).toBeVisible();
    const thumb = page.locator(`img[src="/media/uploads/${code}/${c.poster}"]`).first();
    await expect(thumb).toBeVisible();
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const itemPath = (await card.getAttribute("href")) ?? "";
    await page.goto(itemPath);
    await expect(page.getByText(t.storeSays)).toHaveCount(0);

    // Discontinued in the console: the store's item page says so (after its page micro-cache of at most 30 s).
    await page.goto(`/admin/catalog/${id}`);
    await page.getByLabel(t.reason).fill("e2e");
    await page.getByRole("button", { name: t.discontinue }).click();
    await expect(page.getByRole("status").filter({ hasText: t.discontinued })).toBeVisible();
    await expectAccessible(page);
    await expect(async () => {
      await page.goto(itemPath);
      await expect(page.getByText(t.storeSays).first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 45_000, intervals: [2000] });
  });
}
