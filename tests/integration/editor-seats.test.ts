/**
 * Who the editor's hand-off signs in as (issue 24, point 1; docs/editor-sign-in.md "Who can sign in as whom"), walked
 * by the editor simulator through both doors (`GET /api/v1/etc/decrypt` and `/bridge`) for every kind of key:
 * - an individual member's key signs that member in;
 * - a business (B2BG) key opens the key-only webview for that key alone: no account session, and every member-only
 *   API endpoint and page, asked with everything the hand-off returned, answers as to a stranger (no representative's
 *   e-mail, no coworker's key, PC, request or order);
 * - a non-member's key leads to join-and-link.
 */
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes as apiTable } from "../../app/api/routes.server";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { DEMO_REQUESTS } from "../../app/db/seed/requests";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { EditorSimulator } from "../support/editor";
import { ENGINE } from "../support/engine";
import { fill, isApiDoor, pageRoutes } from "../support/routes";

const B2B = DEMO.licenses.b2bg;
/** What only the representative, or another seat of the company, may see. */
const REPRESENTATIVE_ONLY = [
  DEMO.business.email,
  DEMO_REQUESTS.secondKey.serial,
  DEMO_REQUESTS.secondKey.email,
  DEMO_REQUESTS.secondKey.hw_info,
  "TEAM-PC-02",
  "REQ-DEMO-0002",
  "MKT-DEMO-REQ00002",
];

describe(`who the editor's hand-off signs in as, on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
  });
  afterAll(async () => {
    await drop();
  });

  const editorOf = (key: { serial: string; hw_info: string }) => new EditorSimulator(call, key.serial, key.hw_info);
  const handOff = async (editor: EditorSimulator) => {
    const asked = await editor.requestHandOff();
    expect(asked.status).toBe(200);
    return asked.json.data as { kind: string; encrypt: string; url: string };
  };

  it("an individual member's key signs that member in, through etc/decrypt and /bridge", async () => {
    const editor = editorOf(DEMO.licenses.individual);
    const first = await handOff(editor);
    expect(first.kind).toBe("member");
    const api = await editor.decrypt(first.encrypt);
    expect(api.status).toBe(200);
    expect(api.json.data).toMatchObject({ kind: "member", user_type: 1, nickname: DEMO.member.nickname });
    expect(api.json.data.url).toBe("http://store.test/mypage/home?user_type=1");
    const me = await call("/api/v1/users", { headers: { authorizationToken: api.json.data.authorization_token } });
    expect((await me.json()).data.email).toBe(DEMO.member.email);

    const second = await handOff(editor);
    const page = await editor.bridge(second.encrypt, "/mypage/pay");
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/^\/mypage\/pay\?user_type=1/);
    const home = await call("/mypage/home", { headers: { cookie: page.cookie } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(DEMO.member.nickname);
  });

  it("a non-member's key leads to join-and-link, through etc/decrypt and /bridge, and signs nobody in", async () => {
    const editor = editorOf(DEMO.licenses.nonmember);
    const first = await handOff(editor);
    expect(first.kind).toBe("join");
    const api = await editor.decrypt(first.encrypt);
    expect(api.status).toBe(200);
    expect(api.json.data).toMatchObject({ kind: "join", authorization_token: null, user_type: null });
    expect(api.cookie).toBe("");
    const next = `/mypage/licenses?link=${DEMO.licenses.nonmember.serial}#link-licence`;
    expect(api.json.data.url).toBe(`http://store.test/join?redirectTo=${encodeURIComponent(next)}`);

    const page = await editor.bridge((await handOff(editor)).encrypt);
    expect(page.status).toBe(200);
    expect(page.cookie).toBe("");
    expect(page.html).toContain("Link this editor to a market account");
    expect(page.html).toContain(`href="/join?redirectTo=${encodeURIComponent(next).replaceAll("&", "&amp;")}"`);
    expect(page.html).toContain(`href="/login?redirectTo=${encodeURIComponent(next)}"`);
    // Joining with that address ends on the link form with the key filled in.
    const joined = await call(`/join?redirectTo=${encodeURIComponent(next)}`, { headers: { "accept-language": "en" } });
    expect(await joined.text()).toContain(`value="${next.replaceAll("&", "&amp;")}"`);
  });

  describe("a business (B2BG) key", () => {
    let apiCookie = "";
    let bridgeCookie = "";
    let token: string | null = null;
    const editor = () => editorOf(B2B);

    beforeAll(async () => {
      const e = editor();
      const first = await handOff(e);
      expect(first.kind).toBe("key_only");
      const api = await e.decrypt(first.encrypt);
      expect(api.status).toBe(200);
      expect(api.json.data).toMatchObject({ kind: "key_only", authorization_token: null, user_type: null, nickname: null });
      expect(api.json.data.url).toBe("http://store.test/mypage/sw/home");
      token = api.json.data.authorization_token;
      apiCookie = api.cookie;
      const page = await e.bridge((await handOff(e)).encrypt, "/mypage/purchase");
      expect(page.status).toBe(302);
      // A destination outside the webview is not followed.
      expect(page.location).toBe("/mypage/sw/home");
      bridgeCookie = page.cookie;
    });

    it("gives the webview's licence cookie for that key and no account session", async () => {
      for (const cookie of [apiCookie, bridgeCookie]) {
        expect(cookie).toMatch(/(^|; )sw_license=/);
        expect(cookie).not.toMatch(/(^|; )(gt|gsi)=/);
      }
      // The webview opens on that cookie alone (no headers), for that key.
      const home = await editor().page("/mypage/sw/home", { cookie: bridgeCookie });
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain(B2B.serial);
      expect(html).toContain("What this key can do");
      for (const marker of REPRESENTATIVE_ONLY) expect(html).not.toContain(marker);
    });

    it("signs out a member session the webview held before", async () => {
      const e = editor();
      const page = await e.bridge((await handOff(e)).encrypt);
      const res = await call(`/bridge?encrypt=${(await handOff(e)).encrypt}`, { headers: { cookie: "gt=old; gsi=2" } });
      expect(page.status).toBe(302);
      const cleared = res.headers.getSetCookie();
      expect(cleared.some((c) => /^gt=;/.test(c) && /Max-Age=0|Expires=Thu, 01 Jan 1970/.test(c))).toBe(true);
      expect(cleared.some((c) => /^gsi=;/.test(c))).toBe(true);
    });

    it("every member-only API endpoint answers as to a stranger, with everything the hand-off returned", async () => {
      const leaks: string[] = [];
      const members: string[] = [];
      for (const route of apiTable) {
        const path = route.path.replace(/:(\w+)/g, "1");
        for (const cookie of [apiCookie, bridgeCookie]) {
          const res = await call(`/api/v1/${path}`, {
            method: route.method,
            headers: {
              cookie,
              ...(token ? { authorizationToken: token } : {}),
              license_id: B2B.serial,
              hw_info: B2B.hw_info,
              "content-type": "application/json",
              language: "en",
            },
            body: route.method === "GET" ? undefined : "{}",
          });
          const text = await res.text();
          for (const marker of REPRESENTATIVE_ONLY) if (text.includes(marker)) leaks.push(`${route.method} ${route.path}: ${marker}`);
          expect(res.status, `${route.method} ${route.path}`).toBeLessThan(500);
          // The representative's own account data never answers.
          if (route.path === "users" && route.method === "GET") members.push(String(res.status));
        }
      }
      expect(leaks).toEqual([]);
      expect(members).toEqual(["401", "401"]);
    });

    it("every page answers as to a stranger: My page sends to sign-in, the webview shows that key only", async () => {
      const leaks: string[] = [];
      const signedIn: string[] = [];
      for (const route of await pageRoutes()) {
        if (isApiDoor(route)) continue;
        const values = Object.fromEntries(route.params.map((p) => [p, p === "*" ? "x" : "1"]));
        const path = fill(route.pattern, values);
        const res = await call(path, { headers: { cookie: bridgeCookie, "accept-language": "en" } });
        const text = res.headers.get("content-type")?.includes("text") ? await res.text() : "";
        for (const marker of REPRESENTATIVE_ONLY) if (text.includes(marker)) leaks.push(`${path}: ${marker}`);
        // Pages of an account (My page, the payment steps) never open as the representative.
        if (/^\/mypage\/(?!sw\/|withdraw-complete|download-bridge|estimate)/.test(path) && res.status === 200) signedIn.push(path);
      }
      expect(leaks).toEqual([]);
      expect(signedIn).toEqual([]);
      const mypage = await call("/mypage/purchase", { headers: { cookie: bridgeCookie } });
      expect(mypage.status).toBe(302);
      expect(mypage.headers.get("location")).toMatch(/^\/\?redirect=requires-auth/);
    });

    it("the key-only webview offers that key's own orders, downloads and a purchase request, nothing of the company", async () => {
      const e = editor();
      for (const path of ["/mypage/sw/pay", "/mypage/sw/download", "/mypage/sw/request"]) {
        const res = await e.page(path, { cookie: bridgeCookie });
        expect(res.status, path).toBe(200);
        const html = await res.text();
        for (const marker of REPRESENTATIVE_ONLY) expect(html, `${path}: ${marker}`).not.toContain(marker);
      }
      // The second seat's order (paid through the representative) is not this key's: not found.
      const other = await db.selectFrom("orders").select("id").where("order_no", "=", "MKT-DEMO-REQ00002").executeTakeFirstOrThrow();
      expect((await e.page(`/mypage/sw/pay/${other.id}`, { cookie: bridgeCookie })).status).toBe(404);
    });
  });

  it("an office's seats share one address: hand-offs count per licence, unknown installations per address", async () => {
    const ask = (key: { serial: string; hw_info: string }, ip: string) =>
      call("/api/v1/auth/request_blowfish", {
        method: "POST",
        headers: { license_id: key.serial, hw_info: key.hw_info, language: "en" },
        ip,
      });
    // One seat opening the market over and over: 60 an hour for that licence, then 429 with Retry-After.
    const seatIp = "198.51.100.201";
    for (let i = 0; i < 60; i++) expect((await ask(DEMO_REQUESTS.secondKey, seatIp)).status, `hand-off ${i + 1}`).toBe(200);
    const over = await ask(DEMO_REQUESTS.secondKey, seatIp);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await over.json()).result.message).toMatch(
      /^This editor has asked for the 60 sign-ins allowed an hour\. Please try again in \d+ minutes?\.$/,
    );
    // Another seat behind the same address is not held back by it.
    expect((await ask(DEMO.newcomer, seatIp)).status).toBe(200);
    // Guessing installations: 60 unknown ones an hour from an address, then even a right one is refused there.
    const guessIp = "198.51.100.202";
    for (let i = 0; i < 60; i++) expect((await ask({ serial: B2B.serial, hw_info: `HW-GUESS-${i}` }, guessIp)).status).toBe(403);
    expect((await ask({ serial: B2B.serial, hw_info: "HW-GUESS-X" }, guessIp)).status).toBe(429);
    expect((await ask(DEMO.newcomer, guessIp)).status).toBe(429);
  });

  it("revokes sessions a business key's hand-off opened before this release (migration 0028)", async () => {
    const { up } = await import("../../app/db/migrations/0028_handoff_kinds");
    const business = await db.selectFrom("users").select("id").where("email", "=", DEMO.business.email).executeTakeFirstOrThrow();
    const member = await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirstOrThrow();
    const b2b = await db.selectFrom("licenses").select("id").where("serial", "=", B2B.serial).executeTakeFirstOrThrow();
    const ind = await db
      .selectFrom("licenses")
      .select("id")
      .where("serial", "=", DEMO.licenses.individual.serial)
      .executeTakeFirstOrThrow();
    const at = "2026-11-01T10:00:00.000Z";
    const later = "2026-12-01T10:00:00.000Z";
    // Rebuild the table as it was before, with one leaked business session and one rightful member session.
    await db.schema.dropTable("sign_in_handoffs").execute();
    await db.schema
      .createTable("sign_in_handoffs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull())
      .addColumn("license_id", "integer", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    const old = db as unknown as Kysely<any>;
    await old
      .insertInto("sign_in_handoffs")
      .values([
        { id: "leak", user_id: business.id, license_id: b2b.id, expires_at: at, used_at: at, created_at: at },
        { id: "fine", user_id: member.id, license_id: ind.id, expires_at: at, used_at: at, created_at: at },
      ])
      .execute();
    await db
      .insertInto("sessions")
      .values([
        { id: "leaked-business-session", user_id: business.id, created_at: at, expires_at: later },
        { id: "business-own-session", user_id: business.id, created_at: "2026-11-01T09:00:00.000Z", expires_at: later },
        { id: "member-editor-session", user_id: member.id, created_at: at, expires_at: later },
      ])
      .execute();
    await up(db);
    const left = await db
      .selectFrom("sessions")
      .select("id")
      .where("id", "in", ["leaked-business-session", "business-own-session", "member-editor-session"])
      .execute();
    expect(left.map((r) => r.id).sort()).toEqual(["business-own-session", "member-editor-session"]);
    // The hand-off still works on the new table.
    expect((await handOff(editorOf(B2B))).kind).toBe("key_only");
  });
});
