import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

describe(`HTTP API door on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
  });
  afterAll(() => drop());

  it("answers with the spec's envelope", async () => {
    const res = await call("/api/v1/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { code: 200, message: "SUCCESS" }, data: { state: "SUCCESS" } });
  });

  it("answers unknown routes and methods with 404/405 envelopes, never a stack trace", async () => {
    const missing = await call("/api/v1/nothing/here");
    expect(missing.status).toBe(404);
    const body = await missing.json();
    expect(body.result.code).toBe(404);
    expect(body.data.state).toBe("ERROR");
    const wrong = await call("/api/v1/passes", { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect((await wrong.json()).result.message).toContain("DELETE");
    // Every answer is in the caller's language (issue 18, point 6).
    const ko = await (await call("/api/v1/nothing/here", { headers: { language: "ko" } })).json();
    expect(ko.result.message).toBe("nothing/here에 해당하는 API가 없습니다");
    expect(ko.data.error).toBe("ROUTE_NOT_FOUND");
    const invalid = await (await call("/api/v1/contents?space=sticker", { headers: { language: "ko" } })).json();
    expect(invalid.result.message).toBe("space: 올바른 값이 아닙니다");
  });

  it("returns pass prices grouped in the caller's language header currency", async () => {
    const ko = await (await call("/api/v1/passes", { headers: { language: "ko" } })).json();
    expect(Object.keys(ko.data.list)).toEqual(["video", "audio_se", "audio_bgm", "audio_ai", "image", "font"]);
    expect(ko.data.list.video[0].currency).toBe("KRW");
    const en = await (await call("/api/v1/passes", { headers: { language: "en" } })).json();
    expect(en.data.list.audio_bgm[0].currency).toBe("USD");
  });

  it("counts an anonymous cart by its ngt token", async () => {
    const content = await db.selectFrom("contents").select("id").where("price_type", "=", "paid").executeTakeFirstOrThrow();
    await db
      .insertInto("carts")
      .values({ user_id: null, ngt: "anon-123", content_id: content.id, level_flag: 0, created_at: new Date().toISOString() })
      .execute();
    const res = await (await call("/api/v1/carts/count", { headers: { ngt: "anon-123" } })).json();
    expect(res.data.cart_count).toBe(1);
    const other = await (await call("/api/v1/carts/count", { headers: { ngt: "someone-else" } })).json();
    expect(other.data.cart_count).toBe(0);
  });
});
