import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, type DB, migrateToLatest } from "../../app/db/db.server";
import { countRows, DEMO, seedDatabase } from "../../app/db/seed/index.server";
import { passPriceGroups } from "../../app/market/passes.server";
import { hashPassword, verifyPassword } from "../../app/market/users/password.server";
import { createTestDb } from "../support/db";
import { ENGINE, TEST_SEED_SIZE } from "../support/engine";

describe(`data layer on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let dataDir: string;
  beforeAll(async () => {
    ({ db, drop, dataDir } = await createTestDb());
  });
  afterAll(() => drop());

  it("applies migrations once: a second run has nothing to do", async () => {
    const again = await migrateToLatest(db);
    expect(again.results).toEqual([]);
  });

  it("seeds the demo catalog at the requested size with every content type and price kind", async () => {
    expect(await countRows(db, "contents")).toBe(TEST_SEED_SIZE);
    const byType = await db
      .selectFrom("contents")
      .select(["contents_type", sql<number>`count(*)`.as("n")])
      .groupBy("contents_type")
      .execute();
    expect(Object.fromEntries(byType.map((r) => [r.contents_type, Number(r.n) > 0]))).toEqual({
      video: true,
      icon: true,
      audio: true,
      font: true,
      package: true,
    });
    const kinds = await db.selectFrom("contents").select("price_type").distinct().execute();
    expect(kinds.map((k) => k.price_type).sort()).toEqual(["benefit", "free", "paid"]);
    const subs = await db.selectFrom("contents").select("contents_type_sub").distinct().where("contents_type", "=", "audio").execute();
    expect(subs.map((s) => s.contents_type_sub).sort()).toEqual([3001, 3002, 3003]);
  });

  it("gives audio a duration, a BPM (background music), a genre and a mood", async () => {
    const bgm = await db.selectFrom("contents").selectAll().where("contents_type_sub", "=", 3002).limit(5).execute();
    for (const row of bgm) {
      expect(row.duration_ms).toBeGreaterThan(0);
      expect(row.bpm).toBeGreaterThanOrEqual(50);
      expect(row.genre_id).not.toBeNull();
      expect(row.mood_id).not.toBeNull();
      expect(row.preview_path).toMatch(/^\/media\/audio\/bgm-\d\.wav$/);
    }
  });

  it("prices paid items in KRW and USD and free/benefit items at zero", async () => {
    const wrong = await db
      .selectFrom("contents")
      .select("id")
      .where((eb) =>
        eb.or([
          eb.and([eb("price_type", "=", "paid"), eb.or([eb("price_krw", "<=", 0), eb("price_usd", "<=", 0)])]),
          eb.and([eb("price_type", "!=", "paid"), eb.or([eb("price_krw", "!=", 0), eb("price_usd", "!=", 0)])]),
        ]),
      )
      .execute();
    expect(wrong).toEqual([]);
  });

  it("bundles video, icon and background music in every package", async () => {
    const rows = await db
      .selectFrom("package_items")
      .innerJoin("contents", "contents.id", "package_items.content_id")
      .select(["package_items.package_id", "contents.contents_type", "contents.contents_type_sub"])
      .execute();
    const packages = new Map<number, Set<string>>();
    for (const r of rows) {
      const kinds = packages.get(r.package_id) ?? new Set();
      kinds.add(r.contents_type === "audio" ? `audio:${r.contents_type_sub}` : r.contents_type);
      packages.set(r.package_id, kinds);
    }
    expect(packages.size).toBe(
      await db
        .selectFrom("contents")
        .select("id")
        .where("contents_type", "=", "package")
        .execute()
        .then((r) => r.length),
    );
    for (const kinds of packages.values()) expect([...kinds].sort()).toEqual(["audio:3002", "icon", "video"]);
  });

  it("groups pass prices as the spec says, ascending by contents_count", async () => {
    const groups = await passPriceGroups(db, "ko");
    expect(Object.keys(groups)).toEqual(["video", "audio_se", "audio_bgm", "audio_ai", "image", "font"]);
    for (const list of Object.values(groups)) {
      expect(list.map((p) => p.contents_count)).toEqual([5, 10]);
      expect(list.every((p) => p.currency === "KRW" && p.price > 0)).toBe(true);
    }
    const en = await passPriceGroups(db, "en");
    expect(en.video[0].currency).toBe("USD");
  });

  it("has the demo accounts and licences the README lists", async () => {
    const users = await db.selectFrom("users").select(["email", "user_type", "password_hash"]).orderBy("id").execute();
    expect(users.map((u) => [u.email, u.user_type])).toEqual([
      [DEMO.member.email, 1],
      [DEMO.business.email, 2],
      [DEMO.newcomer.email, 1],
    ]);
    expect(await verifyPassword(DEMO.password, users[0].password_hash)).toBe(true);
    const licenses = await db.selectFrom("licenses").select(["serial", "owner_kind", "hw_info"]).execute();
    for (const demo of [...Object.values(DEMO.licenses), DEMO.newcomer]) {
      expect(licenses).toContainEqual(expect.objectContaining({ serial: demo.serial, hw_info: demo.hw_info }));
    }
    expect(new Set(licenses.map((l) => l.owner_kind))).toEqual(new Set(["individual", "b2bg", "nonmember"]));
  });

  it("enforces foreign keys and unique keys on both engines", async () => {
    await expect(
      db
        .insertInto("carts")
        .values({ user_id: null, ngt: "x", content_id: 99_999_999, level_flag: 0, created_at: new Date().toISOString() })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto("users")
        .values({
          email: DEMO.member.email,
          password_hash: await hashPassword("x"),
          nickname: "dup",
          user_type: 1,
          organization: null,
          market_email_agree: 0,
          youtube_channel_id: null,
          youtube_channel_updated_at: null,
          language: "ko",
          created_at: new Date().toISOString(),
        })
        .execute(),
    ).rejects.toThrow();
  });

  it("rolls a transaction back whole when it fails", async () => {
    const before = await countRows(db, "users");
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto("users")
          .values({
            email: "tx@example.com",
            password_hash: "x",
            nickname: "tx",
            user_type: 1,
            organization: null,
            market_email_agree: 0,
            youtube_channel_id: null,
            youtube_channel_updated_at: null,
            language: "en",
            created_at: new Date().toISOString(),
          })
          .execute();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await countRows(db, "users")).toBe(before);
  });

  it("does not seed twice", async () => {
    const again = await seedDatabase(db, { size: 50, dataDir });
    expect(again.skipped).toBe(true);
    expect(await countRows(db, "contents")).toBe(TEST_SEED_SIZE);
  });
});

describe("seed determinism", () => {
  it("writes the same catalog twice", async () => {
    const snapshot = async () => {
      const db = createDb("file::memory:");
      await migrateToLatest(db);
      await seedDatabase(db, { size: 80, dataDir: inject("dataDir") });
      const rows = await db.selectFrom("contents").select(["code", "title_en", "price_krw", "bpm", "released_at"]).orderBy("id").execute();
      await db.destroy();
      return rows;
    };
    expect(await snapshot()).toEqual(await snapshot());
  });
});
