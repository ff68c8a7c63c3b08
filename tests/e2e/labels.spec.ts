import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * Issue 26, points 5 and 6, as a member sees them in both languages: a pass's status (used up is not expired), an
 * expired download's source and end, a pass line's period and its checkbox's name on the payment page, and the
 * zone of every deadline and time. A fresh member (its own licence written into the e2e store's database, since
 * licences come from the editor's registration) so no other test's data moves.
 */
function write(sql: string, ...params: unknown[]) {
  const db = new Database(path.resolve(process.env.E2E_DATA_DIR ?? ".cache/e2e", "market.sqlite"));
  try {
    db.pragma("busy_timeout = 5000");
    return db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}
function read<T>(sql: string, ...params: unknown[]): T {
  const db = new Database(path.resolve(process.env.E2E_DATA_DIR ?? ".cache/e2e", "market.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

const ZONE = { en: "(KST)", ko: "(한국 시간)" } as const;
const T = {
  en: {
    usedUp: "Used up",
    available: "Available",
    expired: "Expired",
    passName: "Video pass · 5",
    select: (name: string) => `Select ${name}`,
    expiredOn: /^Expired [A-Z][a-z]{2} \d{1,2}, \d{4} \(KST\)$/,
    fromPass: "Pass",
    passes: "Passes of this licence",
    usedUpLine: /^Video pass: no remaining downloads \(all 5 used\), until .+ \(KST\)$/,
  },
  ko: {
    usedUp: "모두 사용",
    available: "사용 가능",
    expired: "만료",
    passName: "영상 이용권 · 5",
    select: (name: string) => `${name} 선택`,
    expiredOn: /^\d{4}\. \d{1,2}\. \d{1,2}\. \(한국 시간\) 만료$/,
    fromPass: "이용권",
    passes: "이 라이선스의 이용권",
    usedUpLine: /^영상 이용권: 남은 다운로드 횟수가 없습니다\(5회 모두 사용\), .+ \(한국 시간\)까지$/,
  },
};

const DAY = 86_400_000;
const SHOTS = process.env.LABELS_SHOTS;

/** Saves what the member sees, at phone and desktop widths, when LABELS_SHOTS names a folder. */
async function look(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Joins a fresh member (signed in on this page), gives it a registered licence; answers its ids. */
async function freshMember(page: Page) {
  const id = randomBytes(5).toString("hex");
  const email = `labels-${id}@example.com`;
  const res = await page.request.post("/join", { form: { email, nickname: `labels${id}`, password: "market1234!", agreeTerms: "on" } });
  expect(res.ok()).toBe(true);
  const user = read<{ id: number }>("SELECT id FROM users WHERE email = ?", email);
  const serial = `VEDT-LBL-${id.toUpperCase()}`;
  const now = new Date().toISOString();
  const licence = write(
    `INSERT INTO licenses (serial, alias, email, owner_kind, user_id, hw_info, pc_name, status, license_type, valid_until,
       product_version, sort_order, registered_at, created_at)
     VALUES (?, 'Label PC', ?, 'individual', ?, ?, 'LABEL-PC', 'registered', 'one_year', ?, '2.0.5.1.0', 0, ?, ?)`,
    serial,
    email,
    user.id,
    `HW-LBL-${id}`,
    new Date(Date.now() + 365 * DAY).toISOString(),
    now,
    now,
  ).lastInsertRowid as number;
  return { userId: user.id, licenceId: Number(licence), serial };
}

test("passes, downloads and a payment say the truth and the zone, in English and Korean", async ({ page }) => {
  const member = await freshMember(page);
  const passPrice = read<{ id: number }>("SELECT id FROM pass_prices WHERE contents_flag = 2 AND contents_count = 5 ORDER BY id");
  // A video pass bought through the payments API and the sandbox gateway's page.
  const placed = await page.request.post("/api/v1/payments", {
    data: {
      items: [{ kind: "pass", id: passPrice.id }],
      license_id: member.licenceId,
      method: "card",
      agree_terms: true,
      agree_paid: true,
      idempotency_key: `labels-${member.userId}`,
    },
    headers: { language: "ko" },
  });
  expect(placed.ok()).toBe(true);
  const body = (await placed.json()) as { data: { order_no: string; checkout: { url: string } } };
  await page.goto(body.data.checkout.url);
  await page
    .getByRole("button", { name: "결제 승인" })
    .or(page.getByRole("button", { name: "Approve payment" }))
    .click();
  await expect
    .poll(() => read<{ status: string }>("SELECT status FROM orders WHERE order_no = ?", body.data.order_no).status, { timeout: 30_000 })
    .toBe("complete");
  const order = read<{ id: number }>("SELECT id FROM orders WHERE order_no = ?", body.data.order_no);

  // The payment page before any download: the pass line has its end and a checkbox named after the pass.
  for (const lang of ["en", "ko"] as const) {
    const t = T[lang];
    await openIn(page, `/mypage/pay/${order.id}`, lang);
    const box = page.getByRole("checkbox", { name: t.select(t.passName), exact: true });
    await expect(box).toBeVisible();
    const row = page.locator("tr").filter({ has: box });
    await expect(row.locator("td").last()).toHaveText(new RegExp(`\\d{1,2}:\\d{2}.* \\${ZONE[lang].slice(0, -1)}\\)$`));
    await expectAccessible(page);
    await look(page, `pay-${lang}`);
  }

  // The pass used up (0 left, still valid), another pass past its end, and an item taken with that one, now ended.
  write("UPDATE passes SET remaining = 0 WHERE user_id = ?", member.userId);
  const old = write(
    `INSERT INTO passes (user_id, license_id, order_item_id, pass_price_id, remaining, total, status, purchased_at, expires_at)
     VALUES (?, ?, NULL, ?, 2, 5, 'available', ?, ?)`,
    member.userId,
    member.licenceId,
    passPrice.id,
    new Date(Date.now() - 100 * DAY).toISOString(),
    new Date(Date.now() - 10 * DAY).toISOString(),
  ).lastInsertRowid;
  const item = read<{ id: number; title_en: string; title_ko: string }>(
    "SELECT id, title_en, title_ko FROM contents WHERE contents_type = 'video' AND status = 'active' AND price_type = 'paid' ORDER BY id",
  );
  write(
    `INSERT INTO downloads (content_id, license_id, user_id, order_item_id, pass_id, kind, created_at, expires_at, request_id)
     VALUES (?, ?, ?, NULL, ?, 'pass', ?, ?, NULL)`,
    item.id,
    member.licenceId,
    member.userId,
    Number(old),
    new Date(Date.now() - 50 * DAY).toISOString(),
    new Date(Date.now() - 10 * DAY).toISOString(),
  );

  for (const lang of ["en", "ko"] as const) {
    const t = T[lang];
    await openIn(page, "/mypage/passes?status=all", lang);
    const rows = page.locator("table.data-table tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: "0 / 5" }).locator("td").nth(2)).toHaveText(t.usedUp);
    await expect(rows.filter({ hasText: "2 / 5" }).locator("td").nth(2)).toHaveText(t.expired);
    for (const cell of await rows.locator("td:nth-child(5)").all()) await expect(cell).toContainText(ZONE[lang]);
    await expectAccessible(page);
    await look(page, `passes-${lang}`);

    await openIn(page, "/mypage/download", lang);
    await expect(page.getByRole("list", { name: t.passes, exact: true }).getByRole("listitem")).toHaveText([t.usedUpLine]);
    const row = page.locator("tr").filter({ hasText: lang === "en" ? item.title_en : item.title_ko });
    await expect(row.locator("td").nth(2)).toHaveText(t.fromPass);
    await expect(row.locator("td").nth(3)).toHaveText(t.expiredOn);
    await expectAccessible(page);
    await look(page, `download-${lang}`);

    // Order times on the payment history say the zone too.
    await openIn(page, "/mypage/pay", lang);
    await expect(page.locator("main")).toContainText(ZONE[lang]);
    await expectAccessible(page);
  }
});
