import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, openIn, test } from "./fixtures";

/**
 * The editor opens the store with a hand-off (docs/editor-sign-in.md, "Who can sign in as whom"), in Chromium, in
 * both languages: a business key lands on its key-only webview (no account session: My page asks to sign in), a
 * non-member's key on the way to join and link, an individual member's key on that member's My page.
 */
const KEYS = {
  business: { serial: "VEDT-B2B-0001-DEMO", hw: "HW-DEMO-B2B-0001" },
  nonmember: { serial: "VEDT-NON-0001-DEMO", hw: "HW-DEMO-NON-0001" },
  individual: { serial: "VEDT-IND-0001-DEMO", hw: "HW-DEMO-IND-0001" },
};

const T = {
  en: {
    keyOnly: "What this key can do",
    orders: "This key's payments",
    pay: "Payment history",
    join: "Link this editor to a market account",
    joinButton: "Join the market",
  },
  ko: {
    keyOnly: "이 키로 할 수 있는 일",
    orders: "이 키의 결제 내역",
    pay: "결제 내역",
    join: "편집 프로그램을 마켓 계정에 연결하기",
    joinButton: "마켓 가입하기",
  },
} as const;

async function handOff(request: APIRequestContext, key: { serial: string; hw: string }) {
  const res = await request.post("/api/v1/auth/request_blowfish", { headers: { license_id: key.serial, hw_info: key.hw } });
  expect(res.status()).toBe(200);
  return (await res.json()).data as { kind: string; url: string };
}

/** The bridge address on this test server (the answer names PUBLIC_URL, which is this server). */
const local = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

const hasSession = async (page: Page) => (await page.context().cookies()).some((c) => (c.name === "gt" || c.name === "gsi") && c.value);

test.describe.configure({ mode: "serial" });

for (const lang of ["en", "ko"] as const) {
  test(`a business key's hand-off opens its key-only webview, never an account (${lang})`, async ({ page, request }) => {
    await openIn(page, "/support", lang);
    const issued = await handOff(request, KEYS.business);
    expect(issued.kind).toBe("key_only");
    await page.goto(local(issued.url));
    await expect(page).toHaveURL(/\/mypage\/sw\/home$/);
    await expect(page.getByRole("heading", { name: T[lang].keyOnly })).toBeVisible();
    await expect(page.getByText(KEYS.business.serial).first()).toBeVisible();
    expect(await hasSession(page)).toBe(false);
    await expectAccessible(page);
    await page.getByRole("link", { name: T[lang].orders }).click();
    await expect(page).toHaveURL(/\/mypage\/sw\/pay$/);
    await expect(page.getByRole("heading", { level: 1, name: T[lang].pay })).toBeVisible();
    await expectAccessible(page);
    // The company's My page is not open to the seat.
    await page.goto("/mypage/purchase");
    await expect(page).toHaveURL(/redirect=requires-auth/);
  });

  test(`a non-member's key leads to join and link (${lang})`, async ({ page, request }) => {
    await openIn(page, "/support", lang);
    const issued = await handOff(request, KEYS.nonmember);
    expect(issued.kind).toBe("join");
    await page.goto(local(issued.url));
    await expect(page.getByRole("heading", { level: 1, name: T[lang].join })).toBeVisible();
    await expect(page.getByText(KEYS.nonmember.serial)).toBeVisible();
    expect(await hasSession(page)).toBe(false);
    await expectAccessible(page);
    await page.getByRole("link", { name: T[lang].joinButton }).click();
    await expect(page).toHaveURL(/\/join\?redirectTo=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get("redirectTo") ?? "")).toBe(
      `/mypage/licenses?link=${KEYS.nonmember.serial}#link-licence`,
    );
  });

  test(`an individual member's key signs that member in (${lang})`, async ({ page, request }) => {
    await openIn(page, "/support", lang);
    const issued = await handOff(request, KEYS.individual);
    expect(issued.kind).toBe("member");
    await page.goto(local(issued.url));
    await expect(page).toHaveURL(/\/mypage\/home/);
    await expect(page.getByText("데모회원").first()).toBeVisible();
    expect(await hasSession(page)).toBe(true);
    await expectAccessible(page);
  });
}
