/**
 * Sign-in from the editor (spec section 7: request_blowfish, etc/decrypt?encrypt&type=1): a short-lived, single-use,
 * AES-256-GCM hand-off token signs the licence's owner in without a password, through the API and /bridge; the
 * company account service is the built-in accounts or an HTTP service (its contract reproduced with msw).
 */
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createBuiltInAccounts, createHttpAccounts } from "../../app/integrations/accounts/company-accounts.server";
import type { MarketError } from "../../app/market/errors";
import { issueSignInHandOff, openHandOff, redeemSignInHandOff, sealHandOff } from "../../app/market/users/hand-off.server";
import { ACCOUNTS_BASE, ACCOUNTS_TOKEN, accountsHandlers } from "../mocks/accounts";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

const SECRET = "test-secret-test-secret";
const IND = DEMO.licenses.individual;
const server = setupServer(...accountsHandlers({ [`${IND.serial}|${IND.hw_info}`]: DEMO.member.email }));

describe(`sign-in from the editor on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: "bypass" });
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
  });
  afterEach(() => server.resetHandlers());
  afterAll(async () => {
    server.close();
    await drop();
  });

  const ask = (headers: Record<string, string>, ip = "198.51.100.80") =>
    call("/api/v1/auth/request_blowfish", { method: "POST", headers: { ...headers, "content-type": "application/json" }, ip });
  const editor = { license_id: IND.serial, hw_info: IND.hw_info };

  it("the editor's token opens the owner's session once through /bridge, then the link is spent", async () => {
    const res = await ask(editor);
    expect(res.status).toBe(200);
    const { encrypt, url, expires_at } = (await res.json()).data;
    expect(url).toBe(`http://store.test/bridge?encrypt=${encrypt}`);
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(120_000);
    // The token is encrypted: neither the member's id nor anything readable is in it.
    expect(Buffer.from(encrypt, "base64url").toString("latin1")).not.toMatch(/"u"|member/);
    const bridged = await call(`/bridge?encrypt=${encrypt}&redirectTo=%2Fmypage%2Fpay`);
    expect(bridged.status).toBe(302);
    expect(bridged.headers.get("location")).toMatch(/^\/mypage\/pay\?user_type=1/);
    const cookie = bridged.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .filter((c) => !c.endsWith("="))
      .join("; ");
    const home = await call("/mypage/home", { headers: { cookie } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(DEMO.member.nickname);
    const again = await call(`/bridge?encrypt=${encrypt}`);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This sign-in link has expired or was already used.");
    expect(again.headers.getSetCookie().some((c) => c.startsWith("gt=") && !c.startsWith("gt=;"))).toBe(false);
  });

  it("etc/decrypt?encrypt&type=1 answers an authorizationToken for the owner, once", async () => {
    const { encrypt } = (await (await ask(editor)).json()).data;
    const res = await call(`/api/v1/etc/decrypt?encrypt=${encrypt}&type=1`);
    expect(res.status).toBe(200);
    const body = (await res.json()).data;
    expect(body.user_type).toBe(1);
    const me = await call("/api/v1/users", { headers: { authorizationToken: body.authorization_token } });
    expect((await me.json()).data.email).toBe(DEMO.member.email);
    const replay = await call(`/api/v1/etc/decrypt?encrypt=${encrypt}&type=1`, { headers: { language: "ko" } });
    expect(replay.status).toBe(401);
    expect((await replay.json()).result.message).toBe("로그인 링크가 만료되었거나 이미 사용되었습니다.");
    expect((await call(`/api/v1/etc/decrypt?encrypt=${encrypt}&type=2`)).status).toBe(400);
  });

  it("two redemptions racing with one token open one session", async () => {
    const { encrypt } = await issueSignInHandOff(db, createBuiltInAccounts(db), {
      serial: IND.serial,
      hwInfo: IND.hw_info,
      secret: SECRET,
      ip: "198.51.100.81",
    });
    const results = await Promise.all(Array.from({ length: 8 }, () => redeemSignInHandOff(db, { token: encrypt, secret: SECRET })));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("refuses expired, tampered, foreign and forged tokens", async () => {
    const accounts = createBuiltInAccounts(db);
    const past = new Date(Date.now() - 3 * 60_000);
    const old = await issueSignInHandOff(
      db,
      accounts,
      { serial: IND.serial, hwInfo: IND.hw_info, secret: SECRET, ip: "198.51.100.81" },
      past,
    );
    expect(await redeemSignInHandOff(db, { token: old.encrypt, secret: SECRET })).toBeNull();
    const fresh = await issueSignInHandOff(db, accounts, { serial: IND.serial, hwInfo: IND.hw_info, secret: SECRET, ip: "198.51.100.81" });
    const flipped = `${fresh.encrypt.slice(0, 20)}${fresh.encrypt[20] === "A" ? "B" : "A"}${fresh.encrypt.slice(21)}`;
    expect(await redeemSignInHandOff(db, { token: flipped, secret: SECRET })).toBeNull();
    expect(await redeemSignInHandOff(db, { token: fresh.encrypt, secret: "another-secret-another" })).toBeNull();
    // A token naming a hand-off that was never issued (sealed with the right key) opens nothing either.
    const forged = sealHandOff({ h: "never-issued", k: "member", u: 1, l: 1, e: Date.now() + 60_000 }, SECRET);
    expect(openHandOff(forged, SECRET)?.h).toBe("never-issued");
    expect(await redeemSignInHandOff(db, { token: forged, secret: SECRET })).toBeNull();
    expect(await redeemSignInHandOff(db, { token: fresh.encrypt, secret: SECRET })).not.toBeNull();
  });

  it("refuses an installation it does not know", async () => {
    expect((await ask({ license_id: IND.serial, hw_info: "HW-SOMEONE-ELSE" })).status).toBe(403);
    expect((await ask({})).status).toBe(401);
  });

  it("a member token whose account became a business account, or whose key became a business key, opens nothing", async () => {
    const accounts = createBuiltInAccounts(db);
    const issued = await issueSignInHandOff(db, accounts, { serial: IND.serial, hwInfo: IND.hw_info, secret: SECRET, ip: "198.51.100.81" });
    expect(issued.kind).toBe("member");
    await db.updateTable("licenses").set({ owner_kind: "b2bg" }).where("serial", "=", IND.serial).execute();
    try {
      expect(await redeemSignInHandOff(db, { token: issued.encrypt, secret: SECRET })).toBeNull();
    } finally {
      await db.updateTable("licenses").set({ owner_kind: "individual" }).where("serial", "=", IND.serial).execute();
    }
  });

  it("asks an HTTP company account service when configured (its contract reproduced with msw)", async () => {
    const accounts = createHttpAccounts({ baseUrl: ACCOUNTS_BASE, token: ACCOUNTS_TOKEN });
    expect(await accounts.ownerOfLicense(IND.serial, IND.hw_info)).toEqual({ email: DEMO.member.email, userType: 1 });
    expect(await accounts.ownerOfLicense(IND.serial, "HW-OTHER")).toBeNull();
    const issued = await issueSignInHandOff(db, accounts, { serial: IND.serial, hwInfo: IND.hw_info, secret: SECRET, ip: "198.51.100.81" });
    const redeemed = await redeemSignInHandOff(db, { token: issued.encrypt, secret: SECRET });
    expect(redeemed?.kind === "member" && redeemed.user.nickname).toBe(DEMO.member.nickname);
    // The B2BG key's installation is unknown to this service: still never an account, the key-only webview.
    const unknown = await issueSignInHandOff(db, accounts, {
      serial: DEMO.licenses.b2bg.serial,
      hwInfo: DEMO.licenses.b2bg.hw_info,
      secret: SECRET,
      ip: "198.51.100.81",
    });
    expect(unknown.kind).toBe("key");
    // The service names the business account as the owner of a seat (user_type 2): key-only, never its session,
    // even when the e-mail is a market member's.
    server.use(...accountsHandlers({ [`${IND.serial}|${IND.hw_info}`]: { email: DEMO.member.email, user_type: 2 } }));
    const seat = await issueSignInHandOff(db, accounts, { serial: IND.serial, hwInfo: IND.hw_info, secret: SECRET, ip: "198.51.100.81" });
    expect(seat.kind).toBe("key");
    expect((await redeemSignInHandOff(db, { token: seat.encrypt, secret: SECRET }))?.kind).toBe("key");
    server.use(http.get(`${ACCOUNTS_BASE}/licenses/:serial/owner`, () => HttpResponse.json({ email: "x@y.example", user_type: 9 })));
    await expect(accounts.ownerOfLicense(IND.serial, IND.hw_info)).rejects.toThrow(/malformed/);
    server.use(http.get(`${ACCOUNTS_BASE}/licenses/:serial/owner`, () => HttpResponse.json({ error: "down" }, { status: 503 })));
    await expect(accounts.ownerOfLicense(IND.serial, IND.hw_info)).rejects.toThrow(/unavailable/);
    const down = await issueSignInHandOff(db, accounts, {
      serial: IND.serial,
      hwInfo: IND.hw_info,
      secret: SECRET,
      ip: "198.51.100.81",
    }).catch((e: MarketError) => e.status);
    expect(down).toBe(503);
    const unauthenticated = createHttpAccounts({ baseUrl: ACCOUNTS_BASE });
    server.resetHandlers();
    await expect(unauthenticated.ownerOfLicense(IND.serial, IND.hw_info)).rejects.toThrow(/HTTP 401/);
  });
});
