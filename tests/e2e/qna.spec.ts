import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/** A real 1×1 PNG, so the detail page's image loads. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
/** The database of the server Playwright started (playwright.config.ts). */
const DB_FILE = path.join(process.env.E2E_DATA_DIR ?? ".cache/e2e", "market.sqlite");

async function signIn(page: Page, lang: "en" | "ko", to: string) {
  await openIn(page, `/login?redirectTo=${encodeURIComponent(to)}`, lang);
  await page.getByLabel(lang === "en" ? "E-mail" : "이메일", { exact: true }).fill("member@example.com");
  await page.getByLabel(lang === "en" ? "Password" : "비밀번호", { exact: true }).fill("market1234!");
  await page.getByRole("button", { name: lang === "en" ? "Sign in" : "로그인", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === to);
}

test("a member's inquiry: filed on the 1:1 form, listed on /mypage/qna, shown, edited and answered, in ko and en with axe", async ({
  page,
}) => {
  const title = `Where is my download? ${Date.now()}`;
  await signIn(page, "en", "/support/question");
  await page.getByLabel("Category *").selectOption("download");
  await page.getByLabel("Title *").fill(title);
  await page.getByLabel("Question *").fill("I paid yesterday.\nThe item is not in the editor.");
  await page.getByLabel("Attachment (jpg or png, up to 2 MB)").setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Send inquiry" }).click();
  await expect(page.getByText("Your inquiry has been received.")).toBeVisible();
  await page.getByRole("link", { name: "See my inquiries" }).click();

  await expect(page).toHaveURL(/\/mypage\/qna$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("1:1 inquiries");
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row.getByText("Accepted")).toBeVisible();
  await expect(row.getByText("Download", { exact: true })).toBeVisible();
  await expectAccessible(page);

  await row.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/mypage\/qna\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByRole("region", { name: "Question", exact: true })).toContainText("The item is not in the editor.");
  const image = page.getByRole("img", { name: "The image attached to this inquiry" });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await page.getByText("Edit this inquiry").click();
  await expectAccessible(page);

  // Edit with JavaScript: a refused save keeps the form open with the message, a good one says it was saved.
  await page.getByLabel("E-mail *").fill("not-mail");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await page.getByLabel("E-mail *").fill("member@example.com");
  await page.getByLabel("Title *").fill(`${title} (edited)`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Your changes have been saved.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${title} (edited)`);

  // The operator's answer (the console will call answerInquiry): the member sees it, and editing ends.
  // (In a child process: the domain's modules import the locale files, which Playwright's loader cannot.)
  execFileSync(
    "node",
    ["--import", "tsx", "scripts/answer-inquiry.ts", String(id), "It is in the editor now: open Downloads and refresh."],
    {
      env: { ...process.env, DATABASE_URL: `file:${DB_FILE}` },
    },
  );
  await page.reload();
  await expect(page.getByText("It is in the editor now: open Downloads and refresh.")).toBeVisible();
  await expect(page.getByText("Answered inquiries can't be edited.")).toBeVisible();
  await expect(page.getByText("Edit this inquiry")).toHaveCount(0);
  await expectAccessible(page);

  await openIn(page, "/mypage/qna", "ko");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("1:1 문의 내역");
  await expect(page.getByRole("row").filter({ hasText: title }).getByText("답변 완료")).toBeVisible();
  await expectAccessible(page);
  await openIn(page, `/mypage/qna/${id}`, "ko");
  await expect(page.getByText("답변이 완료된 문의는 수정할 수 없습니다.")).toBeVisible();
  await expectAccessible(page);
});

test("an accepted inquiry's edit form in Korean passes axe, and the list is empty for a new member", async ({ page }) => {
  await signIn(page, "ko", "/support/question");
  await page.getByLabel("분류 *").selectOption("refund");
  await page.getByLabel("제목 *").fill("환불 문의");
  await page.getByLabel("문의 내용 *").fill("환불해 주세요.");
  await page.getByRole("button", { name: "문의 보내기" }).click();
  await page.getByRole("link", { name: "내 문의 내역 보기" }).click();
  await page.getByRole("link", { name: "환불 문의" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("환불 문의");
  await page.getByText("문의 수정하기").click();
  await expect(page.getByLabel("제목 *")).toHaveValue("환불 문의");
  await expectAccessible(page);

  // Another member has none, and the demo member's inquiry is not found for them.
  const id = new URL(page.url()).pathname.split("/").pop();
  await page.context().clearCookies();
  const member = { email: `qna-${Date.now()}@example.com`, password: "long-enough-pw-1", nickname: "Newcomer", agreeTerms: "on" };
  expect((await page.request.post("/join", { form: member })).ok()).toBe(true);
  await page.goto("/mypage/qna");
  await expect(page.getByText("You have not sent a 1:1 inquiry yet.")).toBeVisible();
  await expectAccessible(page);
  const other = await page.request.get(`/mypage/qna/${id}`);
  expect(other.status()).toBe(404);
  const file = await page.request.get(`/mypage/qna/${id}/attachment`);
  expect(file.status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an inquiry with an attachment over 2 MB keeps every typed field and says only that files can't be attached", async ({ page }) => {
    await signIn(page, "en", "/support/question");
    const title = `Big screenshot ${Date.now()}`;
    await page.getByLabel("Category *").selectOption("download");
    await page.getByLabel("Title *").fill(title);
    await page.getByLabel("Question *").fill("The picture shows the error.\nIt is large.");
    const big = Buffer.alloc(2 * 1024 * 1024 + 100, 1);
    PNG.copy(big);
    await page.getByLabel("Attachment (jpg or png, up to 2 MB)").setInputFiles({ name: "big.png", mimeType: "image/png", buffer: big });
    await page.getByRole("button", { name: "Send inquiry" }).click();
    await expect(page.getByText("Files can't be attached.").first()).toBeVisible();
    await expect(page.getByLabel("Title *")).toHaveValue(title);
    await expect(page.getByLabel("Question *")).toHaveValue("The picture shows the error.\nIt is large.");
    await expect(page.getByLabel("Category *")).toHaveValue("download");
    await expect(page.getByText("Your inquiry has been received.")).toHaveCount(0);
    // (axe-core runs in the page, so the form is scanned with JavaScript on, in the test above.)
  });
});
