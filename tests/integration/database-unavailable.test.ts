import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, type DB, PG_LOCK_TIMEOUT_MS, PG_STATEMENT_TIMEOUT_MS } from "../../app/db/db.server";
import { databaseUnavailableCode } from "../../app/db/errors";
import { addToCart } from "../../app/market/cart.server";
import { checkHealth } from "../../app/utils/health.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts the event loop's turns: the longest gap between two 10 ms ticks says whether anything blocked it. */
function loopWatch() {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

const json = { "content-type": "application/json" };
const addBody = (code: string) => JSON.stringify({ contents_list: [{ item_code: code }] });

describe.skipIf(ENGINE !== "sqlite")("a SQLite database another process holds", () => {
  let db: DB;
  let drop: () => Promise<void>;
  let file: string;
  let dataDir: string;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let codes: string[];
  /** The other process: a second connection to the same file, as the sqlite3 shell or a backup would open it. */
  let other: SQLite.Database;
  const hold = () => {
    other.exec("BEGIN IMMEDIATE");
    other.exec("CREATE TABLE IF NOT EXISTS held_by_someone_else (x)");
    other.prepare("INSERT INTO held_by_someone_else VALUES (1)").run();
  };
  const release = () => {
    if (other.inTransaction) other.exec("ROLLBACK");
  };

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, dataDir } = t);
    file = t.url.replace(/^file:/, "");
    call = await createTestApp(db, { dataDir });
    const rows = await db
      .selectFrom("contents")
      .select("code")
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .limit(8)
      .execute();
    codes = rows.map((r) => r.code);
    other = new SQLite(file);
  });
  afterEach(() => release());
  afterAll(async () => {
    other.close();
    await drop();
  });

  it("answers a write 503 within 3 s while the event loop and reads stay free, and writes again once released", async () => {
    // The page is rendered once before, so the measure is of the wait and not of a first render.
    expect((await call("/notice", { headers: { "accept-language": "en" } })).status).toBe(200);
    hold();
    const loop = loopWatch();
    const t0 = performance.now();
    const write = call("/api/v1/carts", { method: "POST", headers: { ...json, ngt: "busy-1" }, body: addBody(codes[0]) });
    // Meanwhile, in the same process: a read through the API and a page.
    await sleep(100);
    const r0 = performance.now();
    const count = await call("/api/v1/carts/count", { headers: { ngt: "busy-1" } });
    const readMs = performance.now() - r0;
    const page = await call("/notice", { headers: { "accept-language": "en" } });
    const res = await write;
    const ms = performance.now() - t0;
    const longestGap = loop.stop();

    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(await res.json()).toEqual({
      result: { code: 503, message: "Please try again in a few minutes" },
      data: { state: "ERROR", error: "DATABASE_BUSY" },
    });
    expect(ms, "time to the 503 (ms)").toBeLessThan(3000);
    expect(count.status).toBe(200);
    // Bounds a busy CI machine keeps; a wait that blocked the event loop would take the whole lock budget.
    expect(readMs, "read while waiting (ms)").toBeLessThan(1500);
    expect(page.status).toBe(200);
    expect(longestGap, "longest event-loop gap (ms)").toBeLessThan(1000);

    release();
    const again = await call("/api/v1/carts", { method: "POST", headers: { ...json, ngt: "busy-1" }, body: addBody(codes[0]) });
    expect(again.status).toBe(200);
    expect((await again.json()).data.code).toBe("SUCCESS");
  });

  it("answers a page's write 503 with the try-again page in the visitor's language", async () => {
    hold();
    const res = await call("/cart", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "ko" },
      body: new URLSearchParams({ intent: "add", code: codes[1] }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
    const html = await res.text();
    expect(html).toContain("잠시 후 다시 시도해 주세요");
    expect(html).not.toMatch(/SqliteError|SQLITE_BUSY|at .*\.js:\d+/);
  });

  it("waits out a lock released within the budget: the transaction then goes through", async () => {
    hold();
    const owner = { userId: null, ngt: "busy-2" };
    const adding = addToCart(db, owner, [{ code: codes[2] }]);
    await sleep(300);
    release();
    expect((await adding).code).toBe("SUCCESS");
  });

  it("still takes one add at a time per cart while it waits for the lock", async () => {
    hold();
    const owner = { userId: null, ngt: "busy-3" };
    const adds = Promise.all(Array.from({ length: 10 }, () => addToCart(db, owner, [{ code: codes[3] }])));
    await sleep(200);
    release();
    const results = (await adds).map((r) => r.code).sort();
    expect(results.filter((c) => c === "SUCCESS")).toHaveLength(1);
    expect(results.filter((c) => c === "ALREADY_HAVE_ITEM")).toHaveLength(9);
  });

  it("reports busy, then ok, in the health check", async () => {
    hold();
    const busy = await checkHealth(db, dataDir);
    expect(busy).toMatchObject({ ok: false, database: "busy" });
    release();
    const healthy = await checkHealth(db, dataDir);
    expect(healthy).toMatchObject({ ok: true, database: "ok", disk: { ok: true, writable: true } });
    expect(healthy.disk.freeBytes).toBeGreaterThan(0);
  });

  it("reports a full disk and an unwritable DATA_DIR as not ok", async () => {
    const full = await checkHealth(db, dataDir, { minFreeBytes: Number.MAX_SAFE_INTEGER });
    expect(full).toMatchObject({ ok: false, database: "ok", disk: { ok: false, writable: true } });
    const missing = await checkHealth(db, path.join(dataDir, "no-such-folder"));
    expect(missing).toMatchObject({ ok: false, disk: { ok: false, writable: false } });
    const notAFolder = path.join(dataDir, "a-file");
    fs.writeFileSync(notAFolder, "");
    expect((await checkHealth(db, notAFolder)).disk.writable).toBe(false);
  });

  it("names a full disk as such: DatabaseFullError from SQLite, 503 and one clear log line at the doors", async () => {
    // The database may not grow by a page: SQLITE_FULL, as on a full disk.
    await sql`CREATE TABLE IF NOT EXISTS filler (x BLOB)`.execute(db);
    const { page_count } = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(db)).rows[0];
    await sql.raw(`PRAGMA max_page_count = ${page_count}`).execute(db);
    try {
      const error = await sql`INSERT INTO filler VALUES (randomblob(200000))`.execute(db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ name: "DatabaseFullError", code: "DATABASE_FULL", status: 503 });

      const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const fullDb = db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          if (args.result.numAffectedRows === undefined) return args.result;
          throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
        },
      });
      const fullCall = await createTestApp(fullDb, { dataDir });
      const res = await fullCall("/api/v1/carts", { method: "POST", headers: { ...json, ngt: "full-1" }, body: addBody(codes[4]) });
      expect(res.status).toBe(503);
      expect((await res.json()).data.error).toBe("DATABASE_FULL");
      const page = await fullCall("/cart", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
        body: new URLSearchParams({ intent: "add", code: codes[5] }),
      });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("Please try again in a few minutes");
      const lines = errors.mock.calls.map((c) => String(c[0]));
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(JSON.parse(line)).toMatchObject({ level: "error", code: "DATABASE_FULL", msg: expect.stringMatching(/disk is full/) });
        expect(line).not.toMatch(/\n\s+at /);
      }
      errors.mockRestore();
    } finally {
      await sql.raw("PRAGMA max_page_count = 4294967294").execute(db);
    }
  });
});

describe.skipIf(ENGINE !== "postgres")("a PostgreSQL lock another session holds, and a statement past its time", () => {
  let db: DB;
  let drop: () => Promise<void>;
  let url: string;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let code: string;
  /** The other session: psql, a migration, a report someone left open in a transaction. */
  let other: pg.Client;

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, drop, url } = t);
    call = await createTestApp(db, { dataDir: t.dataDir });
    const row = await db
      .selectFrom("contents")
      .select("code")
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    code = row.code;
    other = new pg.Client({ connectionString: url });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await drop();
  });

  it("opens every pooled session with a lock timeout and a statement timeout", async () => {
    const { rows } = await sql<{ lock: string; statement: string }>`
      select current_setting('lock_timeout') as lock, current_setting('statement_timeout') as statement`.execute(db);
    expect(PG_LOCK_TIMEOUT_MS).toBe(2000);
    expect(PG_STATEMENT_TIMEOUT_MS).toBe(30_000);
    expect(rows[0]).toEqual({ lock: "2s", statement: "30s" });
  });

  it("answers a write 503 with Retry-After within seconds while another session holds the lock; reads go on; writes again once released", async () => {
    await other.query("BEGIN");
    // Writers wait for this lock; readers do not.
    await other.query("LOCK TABLE carts IN EXCLUSIVE MODE");
    // Should the write wait for the lock without end, the lock goes after 8 s, so the test fails rather than hangs.
    const safety = setTimeout(() => void other.query("ROLLBACK"), 8000);
    try {
      const t0 = performance.now();
      const write = call("/api/v1/carts", { method: "POST", headers: { ...json, ngt: "pg-busy-1" }, body: addBody(code) });
      await sleep(100);
      const count = await call("/api/v1/carts/count", { headers: { ngt: "pg-busy-1" } });
      const res = await write;
      const ms = performance.now() - t0;
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("60");
      expect(await res.json()).toEqual({
        result: { code: 503, message: "Please try again in a few minutes" },
        data: { state: "ERROR", error: "DATABASE_BUSY" },
      });
      // The lock timeout (2 s) and the answer, with room for a busy machine: seconds, not as long as the lock lasts.
      expect(ms, "time to the 503 (ms)").toBeGreaterThanOrEqual(PG_LOCK_TIMEOUT_MS - 100);
      expect(ms, "time to the 503 (ms)").toBeLessThan(4000);
      expect(count.status).toBe(200);
    } finally {
      clearTimeout(safety);
      await other.query("ROLLBACK");
    }
    const again = await call("/api/v1/carts", { method: "POST", headers: { ...json, ngt: "pg-busy-1" }, body: addBody(code) });
    expect(again.status).toBe(200);
  });

  it("ends a statement past its time as a busy database (57014), and start-up sessions have no such limits", async () => {
    const quick = createDb(url, { poolSize: 1, statementTimeoutMs: 300 });
    try {
      const t0 = performance.now();
      const error = await sql`select pg_sleep(5)`.execute(quick).then(
        () => null,
        (e: unknown) => e,
      );
      expect(performance.now() - t0).toBeLessThan(3000);
      expect(error).toMatchObject({ code: "57014" });
      expect(databaseUnavailableCode(error)).toBe("DATABASE_BUSY");
      expect(databaseUnavailableCode({ code: "55P03" })).toBe("DATABASE_BUSY");
    } finally {
      await quick.destroy();
    }
    const maintenance = createDb(url, { poolSize: 1, lockTimeoutMs: 0, statementTimeoutMs: 0 });
    try {
      const { rows } = await sql<{ lock: string; statement: string }>`
        select current_setting('lock_timeout') as lock, current_setting('statement_timeout') as statement`.execute(maintenance);
      expect(rows[0]).toEqual({ lock: "0", statement: "0" });
    } finally {
      await maintenance.destroy();
    }
  });
});
