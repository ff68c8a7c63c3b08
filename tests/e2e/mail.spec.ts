import { execFileSync } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import { simpleParser } from "mailparser";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/** The server Playwright started (playwright.config.ts): its database, data folder and secret. */
const DATA = process.env.E2E_DATA_DIR ?? ".cache/e2e";
const DB_FILE = path.join(DATA, "market.sqlite");

const T = {
  en: {
    email: "E-mail",
    password: "Password",
    nickname: "Nickname",
    news: "Send me news and offers by e-mail (optional)",
    agree: /I agree to the terms of use/,
    join: "Create an account",
    title: "Unsubscribe from marketing e-mail",
    confirm: "Unsubscribe",
    done: "You are unsubscribed",
  },
  ko: {
    email: "이메일",
    password: "비밀번호",
    nickname: "닉네임",
    news: "이메일로 소식과 혜택 받기 (선택)",
    agree: /이용약관과 개인정보 처리방침에 동의합니다/,
    join: "회원 가입",
    title: "마케팅 메일 수신 거부",
    confirm: "수신 거부",
    done: "수신 거부가 완료되었습니다",
  },
} as const;

for (const lang of ["en", "ko"] as const) {
  test(`unsubscribe in ${lang} from the link of a newsletter the member received`, async ({ page, request }) => {
    const t = T[lang];
    const email = `news-${lang}-${Date.now()}@example.com`;
    // A member who joins and asks for news.
    await openIn(page, "/join", lang);
    await page.getByLabel(t.email, { exact: true }).fill(email);
    await page.getByLabel(t.password, { exact: true }).fill("long-enough-pw");
    await page.getByLabel(t.nickname, { exact: true }).fill(`N${lang}`);
    await page.getByRole("checkbox", { name: t.news }).check();
    await page.getByRole("checkbox", { name: t.agree }).check();
    await page.getByRole("button", { name: t.join, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/welcome");

    // The store sends a newsletter (npm run newsletter, in a child process: the domain imports the locale files,
    // which Playwright's loader cannot); the server's worker writes it to the outbox.
    execFileSync(
      "node",
      [
        "--import",
        "tsx",
        "scripts/newsletter.ts",
        "--subject-ko",
        "11월 새 콘텐츠",
        "--subject-en",
        "New in November",
        "--body-ko",
        "새 영상이 들어왔습니다.",
        "--body-en",
        "New clips are in.",
      ],
      { env: { ...process.env, DATABASE_URL: `file:${DB_FILE}`, DATA_DIR: DATA, SESSION_SECRET: "e2e-secret-e2e-secret" } },
    );
    const subject = lang === "en" ? "New in November" : "11월 새 콘텐츠";
    const db = new Database(DB_FILE, { readonly: true });
    const sent = () =>
      db.prepare("select id, status from mail_outbox where to_address = ? and kind = 'newsletter' order by id desc").get(email) as
        | { id: number; status: string }
        | undefined;
    await expect.poll(() => sent()?.status, { timeout: 15_000 }).toBe("sent");
    const id = sent()?.id as number;

    // The mail as it was delivered (.eml), read as a mail client reads it. The test outbox is for operators only: the
    // demo support operator (a role that reaches members' data) signs in on the test's own request context, so its
    // cookie stays out of the member's browser (the fuzzer's wrong passwords are for operator@example.com).
    const operator = await request.post("/admin/login", {
      form: { email: "support@example.com", password: "market1234!" },
      maxRedirects: 0,
    });
    expect(operator.status(), "the operator's sign-in").toBe(302);
    const eml = await request.get(`/outbox/${id}/eml`);
    expect(eml.status()).toBe(200);
    const mail = await simpleParser(await eml.body());
    expect(mail.subject).toBe(subject);
    const link = /href="([^"]*\/rejection\?token=[^"]+)"/.exec(mail.html || "")?.[1].replaceAll("&amp;", "&");
    expect(link, "the unsubscribe link in the mail's HTML").toBeTruthy();
    expect(mail.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toContain("List-Unsubscribe=One-Click");

    // Signed out, as from a mail client: the link asks to confirm, then says it is done.
    await page.context().clearCookies();
    await page.goto(`${link}&language=${lang}`);
    await expect(page).toHaveURL((url) => url.pathname === "/rejection" && !url.searchParams.has("language"));
    await page.waitForLoadState("networkidle");
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.title);
    // The address, masked (n***@example.com), so a forwarded mail does not show it whole.
    await expect(page.getByText(`n***@example.com`)).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: t.confirm, exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/rejec-complete");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.done);
    await page.waitForLoadState("networkidle");
    await expectAccessible(page);
    const agree = db.prepare("select market_email_agree from users where email = ?").get(email) as { market_email_agree: number };
    expect(agree.market_email_agree).toBe(0);
    db.close();
  });
}
