import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { countCart, keepSince } from "../../app/market/cart.server";
import { purgeExpired, scheduleHousekeeping } from "../../app/market/housekeeping.server";
import { releaseLease, runExclusive, takeLease } from "../../app/market/jobs.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

const NOW = new Date("2027-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`housekeeping on ${ENGINE}`, () => {
  let db: DB;
  /** A second, separate connection (pool) to the same database: another process, as far as the database can tell. */
  let other: DB;
  let drop: () => Promise<void>;
  let userId: number;
  let licenseId: number;
  let contentIds: number[];
  let passPriceIds: number[];

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop } = t);
    other = createDb(t.url, { poolSize: 4 });
    userId = (await db.selectFrom("users").select("id").where("email", "=", DEMO.member.email).executeTakeFirstOrThrow()).id;
    licenseId = (
      await db.selectFrom("licenses").select("id").where("serial", "=", DEMO.licenses.individual.serial).executeTakeFirstOrThrow()
    ).id;
    contentIds = (await db.selectFrom("contents").select("id").where("price_type", "=", "paid").orderBy("id").limit(6).execute()).map(
      (r) => r.id,
    );
    passPriceIds = (await db.selectFrom("pass_prices").select("id").orderBy("id").limit(3).execute()).map((r) => r.id);
  });
  afterAll(async () => {
    await other.destroy();
    await drop();
  });

  /** Empties the four tables and writes rows on both sides of each expiry, answering the ids that must stay. */
  async function fixtures() {
    for (const t of ["download_tokens", "sessions", "carts", "cart_passes"] as const) await db.deleteFrom(t).execute();
    const token = (id: string, expiresAt: string) => ({
      id,
      kind: "file",
      license_id: licenseId,
      user_id: userId,
      content_id: contentIds[0],
      payload: "{}",
      expires_at: expiresAt,
      created_at: at(-3_600_000),
    });
    // Expired: before now, and exactly now (a token is refused once expires_at <= now). Kept: after now.
    await db
      .insertInto("download_tokens")
      .values([
        token("t-old-1", at(-86_400_000)),
        token("t-old-2", at(-600_000)),
        token("t-old-3", at(-1)),
        token("t-now", at(0)),
        token("t-old-4", at(-2)),
        token("t-live-1", at(1)),
        token("t-live-2", at(600_000)),
      ])
      .execute();
    const session = (id: string, expiresAt: string) => ({ id, user_id: userId, created_at: at(-86_400_000), expires_at: expiresAt });
    await db
      .insertInto("sessions")
      .values([session("s-old", at(-1)), session("s-now", at(0)), session("s-live", at(1)), session("s-live-2", at(86_400_000))])
      .execute();
    const kept = keepSince(NOW);
    const shift = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();
    // Cart lines: shown while created_at >= keepSince(now) (30 days).
    const cart = await db
      .insertInto("carts")
      .values([
        { user_id: userId, ngt: null, content_id: contentIds[0], level_flag: 0, created_at: shift(kept, -86_400_000) },
        { user_id: userId, ngt: null, content_id: contentIds[1], level_flag: 0, created_at: shift(kept, -1) },
        { user_id: userId, ngt: null, content_id: contentIds[2], level_flag: 0, created_at: kept },
        { user_id: userId, ngt: null, content_id: contentIds[3], level_flag: 0, created_at: at(-60_000) },
        { user_id: null, ngt: "anon-old", content_id: contentIds[4], level_flag: 0, created_at: shift(kept, -5) },
        { user_id: null, ngt: "anon-new", content_id: contentIds[5], level_flag: 0, created_at: shift(kept, 5) },
      ])
      .returning("id")
      .execute();
    const passes = await db
      .insertInto("cart_passes")
      .values([
        { user_id: userId, pass_price_id: passPriceIds[0], created_at: shift(kept, -1) },
        { user_id: userId, pass_price_id: passPriceIds[1], created_at: kept },
        { user_id: userId, pass_price_id: passPriceIds[2], created_at: at(0) },
      ])
      .returning("id")
      .execute();
    return {
      tokens: ["t-live-1", "t-live-2"],
      sessions: ["s-live", "s-live-2"],
      carts: [cart[2].id, cart[3].id, cart[5].id],
      cartPasses: [passes[1].id, passes[2].id],
    };
  }
  const remaining = async () => ({
    tokens: (await db.selectFrom("download_tokens").select("id").orderBy("id").execute()).map((r) => r.id),
    sessions: (await db.selectFrom("sessions").select("id").orderBy("id").execute()).map((r) => r.id),
    carts: (await db.selectFrom("carts").select("id").orderBy("id").execute()).map((r) => r.id),
    cartPasses: (await db.selectFrom("cart_passes").select("id").orderBy("id").execute()).map((r) => r.id),
  });

  it("purges exactly what has expired, in batches, and keeps the rest", async () => {
    const keep = await fixtures();
    const shownBefore = await countCart(db, { userId, ngt: null }, NOW);
    expect(await purgeExpired(db, NOW, { batchSize: 2 })).toEqual({
      download_tokens: 5,
      sessions: 2,
      sign_in_handoffs: 0,
      carts: 3,
      cart_passes: 1,
    });
    expect(await remaining()).toEqual(keep);
    // The cart shows what it showed before: only lines it no longer showed went.
    expect(await countCart(db, { userId, ngt: null }, NOW)).toBe(shownBefore);
    expect(await countCart(db, { userId: null, ngt: "anon-new" }, NOW)).toBe(1);
    expect(await purgeExpired(db, NOW)).toEqual({ download_tokens: 0, sessions: 0, sign_in_handoffs: 0, carts: 0, cart_passes: 0 });
  });

  it("stops after maxBatches and leaves the rest for the next run", async () => {
    const keep = await fixtures();
    expect(await purgeExpired(db, NOW, { batchSize: 2, maxBatches: 1 })).toEqual({
      download_tokens: 2,
      sessions: 2,
      sign_in_handoffs: 0,
      carts: 2,
      cart_passes: 1,
    });
    expect((await remaining()).tokens).toHaveLength(5);
    expect((await purgeExpired(db, NOW, { batchSize: 2, maxBatches: 1 })).download_tokens).toBe(2);
    await purgeExpired(db, NOW, { batchSize: 2 });
    expect(await remaining()).toEqual(keep);
  });

  it("runs a job once when two processes ask at the same time", async () => {
    for (let round = 0; round < 10; round++) {
      let runs = 0;
      let skipped = 0;
      // The job holds on until every other asker has had its answer (or 2 s), so all four asks overlap it.
      const job = async () => {
        runs++;
        for (let waited = 0; skipped < 3 && waited < 2_000; waited += 5) await sleep(5);
        return runs;
      };
      const ask = (d: DB, holder: string) =>
        runExclusive(d, `race-${round}`, { holder, leaseMs: 60_000 }, job).then((outcome) => {
          if (!outcome.ran) skipped++;
          return outcome;
        });
      const outcomes = await Promise.all([ask(db, "a1"), ask(other, "b1"), ask(db, "a2"), ask(other, "b2")]);
      expect(runs, `round ${round}`).toBe(1);
      expect(outcomes.filter((o) => o.ran)).toEqual([{ ran: true, result: 1 }]);
      // Released when it ended: the next asker runs.
      expect((await runExclusive(other, `race-${round}`, { holder: "b3", leaseMs: 60_000 }, job)).ran).toBe(true);
    }
  });

  it("releases the lease when the job throws, and lets another process take a lease its holder left to expire", async () => {
    await expect(
      runExclusive(db, "failing", { holder: "a", leaseMs: 60_000 }, async () => {
        throw new Error("job failed");
      }),
    ).rejects.toThrow("job failed");
    expect((await runExclusive(other, "failing", { holder: "b", leaseMs: 60_000 }, async () => "ok")).ran).toBe(true);

    // A holder that died: its lease holds until it expires, then another takes it over.
    expect(await takeLease(db, "crashed", "dead", 1_000, NOW)).toBe(true);
    expect(await takeLease(other, "crashed", "alive", 1_000, new Date(NOW.getTime() + 999))).toBe(false);
    expect(await takeLease(other, "crashed", "alive", 1_000, new Date(NOW.getTime() + 1_000))).toBe(true);
    const holder = async () =>
      (await db.selectFrom("job_leases").select("holder").where("name", "=", "crashed").executeTakeFirstOrThrow()).holder;
    expect(await holder()).toBe("alive");
    // A holder whose job outlived its lease finishes late: its release leaves the new holder's lease alone.
    await releaseLease(db, "crashed", "dead");
    await releaseLease(db, "crashed", "dead", new Date(NOW.getTime() + 3_600_000));
    expect(await holder()).toBe("alive");
    expect(await takeLease(db, "crashed", "third", 1_000, new Date(NOW.getTime() + 1_500))).toBe(false);
  });

  it("keeps the lease for the cool-down, so the job runs once per period across processes", async () => {
    const job = async () => "ran";
    const options = (holder: string, ms: number) => ({ holder, leaseMs: 60_000, cooldownMs: 3_600_000, now: new Date(NOW.getTime() + ms) });
    expect((await runExclusive(db, "hourly", options("a", 0), job)).ran).toBe(true);
    expect((await runExclusive(other, "hourly", options("b", 60_000), job)).ran).toBe(false);
    expect((await runExclusive(other, "hourly", options("b", 3_599_999), job)).ran).toBe(false);
    expect((await runExclusive(other, "hourly", options("b", 3_600_000), job)).ran).toBe(true);
  });

  it("schedules the purge: the first run comes at start, in one of the two processes, and logs what it deleted", async () => {
    await fixtures();
    await db.deleteFrom("job_leases").execute();
    // Real time: make the fixtures' expired rows expired now as well.
    await db.updateTable("download_tokens").set({ expires_at: "2000-01-01T00:00:00.000Z" }).where("id", "like", "t-old-%").execute();
    // And an attachment a crash left half-written two hours ago.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "market-housekeeping-"));
    const stale = path.join(dataDir, "storage", "inquiries", ".tmp-2026-01-01-x.png");
    fs.mkdirSync(path.dirname(stale), { recursive: true });
    fs.writeFileSync(stale, "x");
    const twoHoursAgo = new Date(Date.now() - 7_200_000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    const logs: Record<string, unknown>[] = [];
    const stops = [db, other].map((d, i) =>
      scheduleHousekeeping(d, {
        everyMs: 60_000,
        firstAfterMs: 0,
        storage: createLocalStorage(dataDir),
        holder: `p${i}`,
        log: (f) => logs.push({ ...f, by: i }),
      }),
    );
    await sleep(500);
    for (const stop of stops) stop();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: "info", msg: "expired rows purged", download_tokens: 4, stale_attachments: 1 });
    expect(fs.existsSync(stale)).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(await db.selectFrom("download_tokens").select("id").where("id", "like", "t-old-%").execute()).toEqual([]);
  });
});
