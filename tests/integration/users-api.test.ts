import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { signIn } from "../support/session";

describe(`users API on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let token: string;
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await call(`/api/v1/${path}`, {
      method,
      headers: { authorizationToken: token, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop } = t);
    call = await createTestApp(db, { dataDir: t.dataDir });
    ({ token } = await signIn(call, DEMO.member.email, "198.51.100.40"));
  });
  afterAll(() => drop());

  it("needs the authorizationToken header", async () => {
    const res = await call("/api/v1/users");
    expect(res.status).toBe(401);
    expect((await res.json()).result.code).toBe(401);
  });

  it("reads and updates the account's newsletter choice", async () => {
    const before = await api("GET", "users");
    expect(before.body.data).toMatchObject({ email: DEMO.member.email, user_type: 1, market_email_agree: 1 });
    expect((await api("POST", "users", { market_email_agree: 0 })).status).toBe(200);
    expect((await api("GET", "users")).body.data.market_email_agree).toBe(0);
    expect((await api("POST", "users", { market_email_agree: "yes" })).status).toBe(400);
  });

  it("registers a YouTube channel with the spec's messages and the 90-day lock", async () => {
    expect((await api("POST", "users/youtube", { channel_id: "bad" })).body.result.message).toBe(
      "Your channel ID is invalid. Please enter a valid channel ID.",
    );
    expect((await api("POST", "users/youtube", { channel_id: "https://example.com/x" })).body.result.message).toBe(
      "Please enter a valid URL address.",
    );
    expect((await api("POST", "users/youtube", { channel_id: "" })).body.result.message).toBe("Please enter a valid channel ID.");
    // In the caller's language (issue 18, point 6), with a stable code.
    const ko = await api("POST", "users/youtube", { channel_id: "bad" }, { language: "ko" });
    expect(ko.body.result.message).toBe("채널 ID가 올바르지 않습니다. 올바른 채널 ID를 입력해 주세요.");
    expect(ko.body.data.error).toBe("YOUTUBE_INVALID_ID");
    expect((await api("POST", "users/youtube", { channel_id: "" }, { language: "ko" })).body.result.message).toBe(
      "올바른 채널 ID를 입력해 주세요.",
    );
    expect((await api("POST", "users/youtube", { channel: 1 }, { language: "ko" })).body.result.message).toBe(
      "channel_id: 올바른 값이 아닙니다",
    );
    expect((await api("POST", "users/youtube", { channel_id: "UC0123456789abcdefghijkl" })).status).toBe(200);
    expect((await api("POST", "users/youtube", { channel_id: "UCzzzzzzzzzzzzzzzzzzzzzz" })).status).toBe(409);
  });

  it("lists, views, renames, reorders and uploads licence nicknames", async () => {
    const list = await api("GET", "users/licenses?limit=10");
    expect(list.body.data.total_count).toBe(2);
    const [a, b] = list.body.data.list as { id: number; serial: string }[];
    expect((await api("GET", "users/licenses?type=permanent")).body.data.list.map((l: { serial: string }) => l.serial)).toEqual([
      "VEDT-IND-0002-DEMO",
    ]);
    const view = await api("GET", "users/licenses/view", undefined, { license_id: a.serial });
    expect(view.body.data.serial).toBe(a.serial);
    expect((await api("GET", "users/licenses/view", undefined, { license_id: DEMO.licenses.b2bg.serial })).status).toBe(404);
    expect((await api("POST", "users/licenses/aliases", { list: [{ id: b.id, alias: "API 별명" }] })).body.data.updated).toBe(1);
    expect((await api("POST", "users/licenses/orders", { order: [b.id, a.id] })).status).toBe(200);
    expect((await api("GET", "users/licenses")).body.data.list.map((l: { id: number }) => l.id)).toEqual([b.id, a.id]);
    expect((await api("POST", "users/licenses/orders", { order: [a.id] })).status).toBe(400);
    const book = new ExcelJS.Workbook();
    book.addWorksheet("s").addRow([a.serial, "시트 별명"]);
    const form = new FormData();
    form.append("file", new File([new Uint8Array(await book.xlsx.writeBuffer())], "a.xlsx"));
    const up = await call("/api/v1/users/licenses/aliases/fileupload", {
      method: "PUT",
      headers: { authorizationToken: token },
      body: form,
    });
    expect((await up.json()).data.count).toBe(1);
    expect((await db.selectFrom("licenses").select("alias").where("id", "=", a.id).executeTakeFirstOrThrow()).alias).toBe("시트 별명");
  });

  it("refuses nicknames for a licence that is not the member's, saving none of the list", async () => {
    const own = (await api("GET", "users/licenses")).body.data.list[0] as { id: number; alias: string | null };
    const other = await db
      .selectFrom("licenses")
      .select(["id", "alias"])
      .where("serial", "=", DEMO.licenses.b2bg.serial)
      .executeTakeFirstOrThrow();
    const res = await api("POST", "users/licenses/aliases", {
      list: [
        { id: own.id, alias: "changed" },
        { id: other.id, alias: "mine now" },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.result).toEqual({ code: 404, message: "No license key with this information found. Please check again." });
    const after = await db.selectFrom("licenses").select(["id", "alias"]).where("id", "in", [own.id, other.id]).orderBy("id").execute();
    expect(after).toEqual([{ id: own.id, alias: own.alias }, other].sort((a, b) => a.id - b.id));
    expect((await api("POST", "users/licenses/aliases", { list: [{ id: 999_999, alias: "x" }] })).status).toBe(404);
  });

  it("answers 429 with the wait in result.message and a Retry-After header past a limit (YouTube checks)", async () => {
    // Two checks above reached YouTube; parse failures do not count.
    let res: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 9; i++) {
      res = await call("/api/v1/users/youtube", {
        method: "POST",
        headers: { authorizationToken: token, "content-type": "application/json", language: i === 8 ? "ko" : "en" },
        body: JSON.stringify({ channel_id: "UCzzzzzzzzzzzzzzzzzzzzzz" }),
      });
      if (i < 8) expect(res.status).toBe(409);
    }
    expect(res?.status).toBe(429);
    expect(Number(res?.headers.get("retry-after"))).toBeGreaterThan(3000);
    const body = await res?.json();
    expect(body.result.code).toBe(429);
    expect(body.result.message).toMatch(/^시도 횟수가 너무 많습니다\. (59|60)분 후에 다시 시도해 주세요\.$/);
    const en = await api("POST", "users/youtube", { channel_id: "UCzzzzzzzzzzzzzzzzzzzzzz" });
    expect(en.body.result.message).toMatch(/^Too many attempts\. Please try again in (59|60) minutes\.$/);
  });

  it("deletes the member with a reason", async () => {
    expect((await api("DELETE", "users", { reason: "price" })).status).toBe(200);
    expect(await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirst()).toBeUndefined();
    expect((await api("GET", "users")).status).toBe(401);
  });
});
