import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

type Call = Awaited<ReturnType<typeof createTestApp>>;
const headers = { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" };
const jar = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
const text = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");

describe(`my page: home, account, YouTube channel and withdrawal on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  const signIn = async (email: string, ip: string) => {
    const res = await call("/login", { method: "POST", headers, body: new URLSearchParams({ email, password: DEMO.password }), ip });
    expect(res.status).toBe(302);
    return jar(res);
  };
  const post = (path: string, cookie: string, fields: Record<string, string>) =>
    call(path, { method: "POST", headers: { ...headers, cookie }, body: new URLSearchParams(fields) });
  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop } = t);
    call = await createTestApp(db, { dataDir: t.dataDir });
  });
  afterAll(() => drop());

  it("guards every my page with redirect=requires-auth", async () => {
    for (const path of ["/mypage", "/mypage/home", "/mypage/member", "/mypage/withdraw", "/mypage/interest"]) {
      const res = await call(path);
      const location = res.headers.get("location") ?? "";
      if (path === "/mypage") expect(location).toBe("/mypage/home");
      else expect(location).toMatch(/^\/\?redirect=requires-auth&redirectTo=/);
    }
  });

  it("shows the member's licences and counts on /mypage/home", async () => {
    const cookie = await signIn(DEMO.member.email, "192.0.2.10");
    const body = await text(await call("/mypage/home", { headers: { cookie, "accept-language": "en" } }));
    expect(body).toContain(`Hello, ${DEMO.member.nickname}`);
    expect(body).toContain(DEMO.licenses.individual.serial);
    expect(body).toContain("Registered");
    expect(body).not.toContain(DEMO.licenses.b2bg.serial);
    expect(body).not.toContain("You have no active licence");
    expect(body).not.toContain('class="no-product"');
  });

  it("prompts a member without an active licence", async () => {
    const user = await db.selectFrom("users").select("id").where("email", "=", DEMO.business.email).executeTakeFirstOrThrow();
    await db.updateTable("licenses").set({ status: "released" }).where("user_id", "=", user.id).execute();
    const cookie = await signIn(DEMO.business.email, "192.0.2.11");
    const home = (await text(await call("/mypage/home", { headers: { cookie, "accept-language": "en" } }))).replace(
      /<script[\s\S]*?<\/script>/g,
      "",
    );
    // Once, in the store's bar: My page's home does not say it again (issue 26.8).
    expect(home.split("You have no active licence")).toHaveLength(2);
    expect(home).toContain('class="no-product"');
    // The prompt follows the member through the store, not only My page.
    expect(await text(await call("/video", { headers: { cookie, "accept-language": "en" } }))).toContain('class="no-product"');
  });

  it("saves nickname and newsletter, and re-renders the form with the message and the input when invalid", async () => {
    const cookie = await signIn(DEMO.member.email, "192.0.2.12");
    const bad = await post("/mypage/member", cookie, { intent: "profile", nickname: "   " });
    expect(bad.status).toBe(400);
    expect(await text(bad)).toContain("Please enter a nickname");
    const ok = await post("/mypage/member", cookie, { intent: "profile", nickname: "새 닉네임", newsletter: "on" });
    expect(await text(ok)).toContain("Your account has been saved.");
    const row = await db
      .selectFrom("users")
      .select(["nickname", "market_email_agree"])
      .where("email", "=", DEMO.member.email)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ nickname: "새 닉네임", market_email_agree: 1 });
  });

  it("registers a YouTube channel with the spec's messages, then locks it for 90 days", async () => {
    const cookie = await signIn(DEMO.member.email, "192.0.2.13");
    const cases: [string, string][] = [
      ["", "Please enter a valid channel ID."],
      ["UCtooShort", "Your channel ID is invalid. Please enter a valid channel ID."],
      ["https://www.youtube.com/@someone", "Please enter a valid URL address."],
    ];
    for (const [channel, message] of cases) {
      const res = await post("/mypage/member", cookie, { intent: "youtube", channel });
      expect(res.status).toBe(400);
      const body = await text(res);
      expect(body).toContain(message);
      if (channel) expect(body).toContain(`value="${channel}"`);
    }
    const id = "UC0123456789abcdefghijkl";
    const saved = await post("/mypage/member", cookie, { intent: "youtube", channel: `https://www.youtube.com/channel/${id}` });
    expect(await text(saved)).toContain("Your YouTube channel has been registered.");
    const row = await db
      .selectFrom("users")
      .select(["youtube_channel_id", "youtube_channel_updated_at"])
      .where("email", "=", DEMO.member.email)
      .executeTakeFirstOrThrow();
    expect(row.youtube_channel_id).toBe(id);
    const page = await text(await call("/mypage/member", { headers: { cookie, "accept-language": "en" } }));
    expect(page).toContain(`Registered channel: ${id}`);
    expect(page).toMatch(/You can change the channel after .+ \(90 days after it was registered or edited\)\./);
    const again = await post("/mypage/member", cookie, { intent: "youtube", channel: "UCzzzzzzzzzzzzzzzzzzzzzz" });
    expect(again.status).toBe(409);
    await db
      .updateTable("users")
      .set({ youtube_channel_updated_at: new Date(Date.now() - 91 * 86_400_000).toISOString() })
      .where("email", "=", DEMO.member.email)
      .execute();
    expect(await text(await post("/mypage/member", cookie, { intent: "youtube", channel: "UCzzzzzzzzzzzzzzzzzzzzzz" }))).toContain(
      "has been registered",
    );
  });

  it("withdraws only with both confirmations, removes the member's market data in one go and signs out", async () => {
    const cookie = await signIn(DEMO.member.email, "192.0.2.14");
    const user = await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirstOrThrow();
    const item = await db.selectFrom("contents").select("id").where("price_type", "=", "paid").executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db.insertInto("carts").values({ user_id: user.id, ngt: null, content_id: item.id, level_flag: 0, created_at: now }).execute();
    await db.insertInto("interests").values({ user_id: user.id, content_id: item.id, created_at: now }).execute();
    const missing = await post("/mypage/withdraw", cookie, { confirmDelete: "on", reason: "price" });
    expect(missing.status).toBe(400);
    const body = await text(missing);
    expect(body).toContain("Please tick both confirmations.");
    expect(body).toMatch(/<option value="price" selected/);
    const done = await post("/mypage/withdraw", cookie, {
      confirmDelete: "on",
      confirmLoss: "on",
      reason: "price",
      detail: "too expensive",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/mypage/withdraw-complete");
    expect(done.headers.getSetCookie().find((c) => c.startsWith("gt="))).toMatch(/Max-Age=0/);
    const left = async (table: "users" | "carts" | "interests" | "sessions") =>
      Number(
        (
          await db
            .selectFrom(table)
            .select(sql<number>`count(*)`.as("n"))
            .where(table === "users" ? "id" : "user_id", "=", user.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const table of ["users", "carts", "interests", "sessions"] as const) expect(await left(table), table).toBe(0);
    const licence = await db
      .selectFrom("licenses")
      .select("user_id")
      .where("serial", "=", DEMO.licenses.individual.serial)
      .executeTakeFirstOrThrow();
    expect(licence.user_id).toBeNull();
    expect(await db.selectFrom("withdrawals").select(["reason", "detail"]).execute()).toEqual([
      { reason: "price", detail: "too expensive" },
    ]);
    expect(await text(await call("/mypage/withdraw-complete", { headers: { "accept-language": "en" } }))).toContain(
      "Your membership has been cancelled",
    );
    expect((await call("/mypage/home", { headers: { cookie } })).status).toBe(302);
  });

  it("tells a business account that passes are for individual members and signs it out on confirm", async () => {
    const cookie = await signIn(DEMO.business.email, "192.0.2.15");
    const page = await text(await call("/price/video", { headers: { cookie, "accept-language": "en" } }));
    expect(page).toMatch(/<dialog[^>]*aria-labelledby="[^"]+"[^>]*>/);
    expect(page).toContain("This service is for individual members.");
    // Said once, not in the box and again in the notes (issue 26.8).
    const shown = page.replace(/<script[\s\S]*?<\/script>/g, "");
    expect(shown.split("Business members cannot buy subscriptions.")).toHaveLength(2);
    expect(page).not.toContain(">Buy this pass<");
    const out = await post("/logout", cookie, { redirectTo: "/price/video" });
    expect(out.headers.get("location")).toBe("/price/video");
    expect(out.headers.getSetCookie().find((c) => c.startsWith("gsi="))).toMatch(/Max-Age=0/);
  });
});
