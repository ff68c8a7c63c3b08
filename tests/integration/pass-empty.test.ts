/**
 * Issue 26, point 4: a used-up pass says the spec's 'no remaining downloads' (section 8) where it is asked for: on the
 * storefront's download page, on the editor's webview download page, and as the API's result.message when the
 * editor downloads with it (not "SUCCESS"), in the caller's language.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { EditorSimulator } from "../support/editor";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

const DAY = 86_400_000;
const EN = "no remaining downloads";
const KO = "남은 다운로드 횟수가 없습니다";

describe(`a used-up pass on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let s: Awaited<ReturnType<typeof newShopper>>;
  let editor: EditorSimulator;
  let passId: number;
  let videos: string[];

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    s = await newShopper(db);
    editor = new EditorSimulator(call, s.serial, s.hwInfo);
    const price = await db
      .selectFrom("pass_prices")
      .select(["id", "contents_count"])
      .where("contents_flag", "=", 2)
      .where("contents_count", "=", 5)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const pass = await db
      .insertInto("passes")
      .values({
        user_id: s.userId,
        license_id: s.licenseId,
        order_item_id: null,
        pass_price_id: price.id,
        remaining: 1,
        total: 5,
        status: "available",
        purchased_at: new Date(now - DAY).toISOString(),
        expires_at: new Date(now + 89 * DAY).toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    passId = pass.id;
    videos = (
      await db
        .selectFrom("contents")
        .select("code")
        .where("contents_type", "=", "video")
        .where("price_type", "=", "paid")
        .where("status", "=", "active")
        .where("file_path", "is not", null)
        .orderBy("id")
        .limit(3)
        .execute()
    ).map((r) => r.code);
  });
  afterAll(async () => {
    await drop();
  });

  const storefront = (lang: string) =>
    call(`/mypage/download?license=${s.licenseId}`, { headers: { cookie: s.jar.header, "accept-language": lang } });

  it("while a download is left, the pages count it and the API answers SUCCESS", async () => {
    expect(await (await storefront("en")).text()).toContain("1 of 5 left");
    expect(await (await editor.page("/mypage/sw/download")).text()).not.toContain(EN);
    const first = await editor.download([videos[0]], "pass", passId);
    expect(first.json.result).toEqual({ code: 200, message: "SUCCESS" });
    expect(first.json.data.granted).toHaveLength(1);
  });

  it("used up: the API's result.message is 'no remaining downloads', in the caller's language", async () => {
    const empty = await editor.download([videos[1]], "pass", passId);
    expect(empty.status).toBe(200);
    expect(empty.json.result.message).toBe(EN);
    expect(empty.json.data).toMatchObject({ state: "ERROR", messages: ["no_remaining", "nothing_available"] });
    const ko = await editor.download([videos[2]], "pass", passId, { language: "ko" });
    expect(ko.json.result.message).toBe(KO);
    // An item the pass already paid for still comes, and the answer still says the pass is empty for the rest.
    const mixed = await editor.download([videos[0], videos[1]], "pass", passId);
    expect(mixed.json.data.state).toBe("SUCCESS");
    expect(mixed.json.data.granted).toHaveLength(1);
    expect(mixed.json.result.message).toBe(EN);
    // Without a pass, nothing changes: the plain download of something not held is not about a pass.
    expect((await editor.download([videos[1]])).json.result.message).toBe("SUCCESS");
  });

  it("used up: the storefront's and the webview's download pages say 'no remaining downloads', in ko and en", async () => {
    const en = await (await storefront("en")).text();
    expect(en).toContain(EN);
    expect(en).not.toContain("0 of 5 left");
    expect(await (await storefront("ko")).text()).toContain(KO);
    const webview = await editor.page("/mypage/sw/download");
    expect(webview.status).toBe(200);
    expect(await webview.text()).toContain(EN);
  });
});
