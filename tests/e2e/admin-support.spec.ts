import type { Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/** A real 1×1 PNG, so the console's preview of the attachment loads. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

async function memberSignIn(page: Page, to: string) {
  await openIn(page, `/login?redirectTo=${encodeURIComponent(to)}`, "en");
  await page.getByLabel("E-mail", { exact: true }).fill("member@example.com");
  await page.getByLabel("Password", { exact: true }).fill("market1234!");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === to);
}

/** The demo administrator signs in to the console (reaching every area), landing on `to`. */
async function operatorSignIn(page: Page, to: string, lang: "en" | "ko") {
  await openIn(page, `/admin/login?next=${encodeURIComponent(to)}`, lang);
  await page.getByLabel(lang === "en" ? "E-mail" : "이메일", { exact: true }).fill("operator@example.com");
  await page.getByLabel(lang === "en" ? "Password" : "비밀번호", { exact: true }).fill("market1234!");
  await page.getByRole("button", { name: lang === "en" ? "Sign in" : "로그인", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === to);
}

test("an operator answers a member's inquiry in the console and the member sees the answer on My page; console pages pass axe in ko and en", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Console answer please ${Date.now()}`;
  // The member files an inquiry with an attachment.
  await memberSignIn(page, "/support/question");
  await page.getByLabel("Category *").selectOption("license");
  await page.getByLabel("Title *").fill(title);
  await page.getByLabel("Question *").fill("My licence shows as expired.");
  await page.getByLabel("Attachment (jpg or png, up to 2 MB)").setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Send inquiry" }).click();
  await expect(page.getByText("Your inquiry has been received.")).toBeVisible();

  // The operator, in a browser of their own, finds it among the accepted licence inquiries.
  const consoleContext = await browser.newContext();
  const op = await consoleContext.newPage();
  await operatorSignIn(op, "/admin/inquiries", "en");
  await expect(op.getByRole("heading", { level: 1 })).toHaveText("1:1 inquiries");
  await op.getByLabel("Status").selectOption("accepted");
  await op.getByLabel("Category").selectOption("license");
  await op.getByRole("button", { name: "Apply" }).click();
  await expect(op).toHaveURL(/status=accepted/);
  const row = op.getByRole("row").filter({ hasText: title });
  await expect(row.getByText("Accepted")).toBeVisible();
  await expectAccessible(op);
  await row.getByRole("link", { name: title }).click();

  await expect(op.getByRole("heading", { level: 1 })).toHaveText(title);
  const id = Number(new URL(op.url()).pathname.split("/").pop());
  await expect(op.getByText("My licence shows as expired.")).toBeVisible();
  await expect(op.getByText("데모회원 (member@example.com, member no.")).toBeVisible();
  const image = op.getByRole("img", { name: "The image attached to this inquiry" });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  const file = await op.request.get(`/admin/inquiries/${id}/attachment`);
  expect(file.status()).toBe(200);
  expect(file.headers()["cache-control"]).toBe("private, no-store");
  await expectAccessible(op);
  const answer = "Your licence was renewed; restart the editor to see it.";
  await op.getByLabel("Answer text").fill(answer);
  await op.getByRole("button", { name: "Send the answer" }).click();
  await expect(op.getByText("The answer was saved and its e-mail queued for the sender.")).toBeVisible();
  await expect(op.getByRole("heading", { name: "Change the answer" })).toBeVisible();
  await expectAccessible(op);

  // The member sees the answer on My page.
  await page.goto(`/mypage/qna/${id}`);
  await expect(page.getByText(answer)).toBeVisible();
  await expect(page.getByText("Answered inquiries can't be edited.")).toBeVisible();
  await page.goto("/mypage/qna");
  await expect(page.getByRole("row").filter({ hasText: title }).getByText("Answered")).toBeVisible();

  // A correction needs a reason; the member then sees the corrected answer.
  await op.getByLabel("Answer text").fill(`${answer} It can take a minute.`);
  await op.getByLabel("Reason for the change").fill("Added the delay.");
  await op.getByRole("button", { name: "Send the corrected answer" }).click();
  await expect(op.getByText("The corrected answer was saved and its e-mail queued for the sender.")).toBeVisible();
  await page.goto(`/mypage/qna/${id}`);
  await expect(page.getByText(`${answer} It can take a minute.`)).toBeVisible();

  // The console's support pages in Korean and English pass axe.
  for (const lang of ["ko", "en"] as const) {
    await openIn(op, "/admin/inquiries", lang);
    await expect(op.getByRole("heading", { level: 1 })).toHaveText(lang === "ko" ? "1:1 문의" : "1:1 inquiries");
    await expectAccessible(op);
    await openIn(op, `/admin/inquiries/${id}`, lang);
    await expect(op.getByRole("heading", { level: 1 })).toHaveText(title);
    await expectAccessible(op);
    await openIn(op, "/admin/publishing/faq", lang);
    await expect(op.getByRole("heading", { level: 1 })).toHaveText(lang === "ko" ? "자주 묻는 질문" : "FAQ");
    await expectAccessible(op);
    await openIn(op, "/admin/publishing/faq/1", lang);
    await expectAccessible(op);
    await openIn(op, "/admin/publishing/guide", lang);
    await expect(op.getByRole("heading", { level: 1 })).toHaveText(lang === "ko" ? "이용 가이드" : "User guide");
    await expectAccessible(op);
  }
  await consoleContext.close();
});

test("an FAQ entry and a guide step edited in the console show on /support", async ({ page }) => {
  test.setTimeout(60_000);
  const stamp = Date.now();
  await operatorSignIn(page, "/admin/publishing/faq", "en");
  await page
    .getByRole("combobox", { name: /^Category/ })
    .last()
    .selectOption("account");
  await page.getByLabel("Question in Korean").fill(`닉네임을 바꿀 수 있나요 ${stamp}?`);
  await page.getByLabel("Answer in Korean").fill("마이페이지에서 바꿀 수 있습니다.");
  await page.getByLabel("Question in English").fill(`Can I change my nickname ${stamp}?`);
  await page.getByLabel("Answer in English").fill("Yes, on My page.");
  await page.getByRole("button", { name: "Add the entry" }).click();
  await expect(page.getByText("The entry was added.")).toBeVisible();
  await expectAccessible(page);

  await page.goto("/admin/publishing/guide");
  const step2 = page.getByRole("group", { name: "Step 2" });
  await step2.getByLabel("Title in English").fill("Create a market account, or sign in.");
  await step2.getByLabel("Text in English (optional)").fill(`Joining is free ${stamp}.`);
  await page.getByRole("button", { name: "Save the guide" }).click();
  await expect(page.getByText("The guide was saved (1 step(s) changed).")).toBeVisible();

  // The store's page (a keyword never asked before, so not an earlier render from the page micro-cache).
  await openIn(page, `/support?keyword=${stamp}`, "en");
  await expect(page.getByText(`Can I change my nickname ${stamp}?`)).toBeVisible();
  await expect(page.getByText(`Joining is free ${stamp}.`)).toBeVisible();
  await expectAccessible(page);
  await openIn(page, `/support?keyword=${stamp}`, "ko");
  await expect(page.getByText(`닉네임을 바꿀 수 있나요 ${stamp}?`)).toBeVisible();
});
