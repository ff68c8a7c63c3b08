import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { isPostgres } from "../../app/db/dialect";
import { searchFilterSchema } from "../../app/market/search/filter-schema.server";
import { ensureSearchIndex } from "../../app/market/search/indexer.server";
import { searchContents } from "../../app/market/search/search.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

describe(`start-up on an older database on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await createTestDb());
  });
  afterAll(() => drop());

  it("builds a missing search index from the catalog, and leaves a present one alone", async () => {
    // As if the catalog had been seeded before the search migration existed.
    await sql`DELETE FROM ${isPostgres(db) ? sql`search_documents` : sql`search_fts`}`.execute(db);
    const piano = searchFilterSchema.parse({ keywords: "piano" });
    expect((await searchContents(db, piano, "en")).total_count).toBe(0);
    const built = await ensureSearchIndex(db);
    const items = await db.selectFrom("contents").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
    expect(built).toBe(Number(items.n));
    expect((await searchContents(db, piano, "en")).total_count).toBeGreaterThan(0);
    expect(await ensureSearchIndex(db)).toBe(0);
  });
});

/**
 * Root writes anywhere, so as root the start-up runs as `nobody` (setpriv); as anyone else, a 0555 folder is
 * enough.
 */
const root = process.getuid?.() === 0;
const setpriv = root ? spawnSync("setpriv", ["--version"]).status === 0 : true;

describe.skipIf(ENGINE !== "sqlite" || !setpriv)("start-up on folders the server cannot write", () => {
  let tmp: string;
  const folder = (name: string, mode: number) => {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    fs.chmodSync(dir, mode);
    return dir;
  };
  /** Runs the start-up (tests/support/boot-once.ts) in its own process: its exit status and what it printed. */
  const boot = (env: Record<string, string>) => {
    const node = [process.execPath, "--import", "tsx", "tests/support/boot-once.ts"];
    const command = root ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ...node] : node;
    const run = spawnSync(command[0], command.slice(1), {
      env: { PATH: process.env.PATH, HOME: tmp, NODE_ENV: "production", SEED_SIZE: "30", ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
  };
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "market-readonly-"));
    fs.chmodSync(tmp, 0o755);
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("names DATA_DIR and its path when it cannot write there", () => {
    const dataDir = folder("data-readonly", 0o555);
    const dbDir = folder("db-writable", 0o777);
    const { status, output } = boot({ DATA_DIR: dataDir, DATABASE_URL: `file:${dbDir}/market.sqlite` });
    expect(status).toBe(1);
    expect(output).toMatch(new RegExp(`^StartupError: DATA_DIR ${dataDir} is not writable \\(${dataDir}\\): EACCES`));
  });

  it("names DATABASE_URL and the file when the database's folder is read-only, new or existing", () => {
    const dataDir = folder("data-writable", 0o777);
    const empty = folder("db-readonly-empty", 0o555);
    const fresh = boot({ DATA_DIR: dataDir, DATABASE_URL: `file:${empty}/market.sqlite` });
    expect(fresh.status).toBe(1);
    expect(fresh.output).toContain(
      `StartupError: DATABASE_URL file:${empty}/market.sqlite: the database ${empty}/market.sqlite cannot be opened`,
    );
    expect(fresh.output).toMatch(/EACCES|unable to open/);

    const existing = folder("db-readonly-existing", 0o755);
    fs.copyFileSync(inject("templateDb"), path.join(existing, "market.sqlite"));
    fs.chmodSync(path.join(existing, "market.sqlite"), 0o644);
    fs.chmodSync(existing, 0o555);
    const old = boot({ DATA_DIR: dataDir, DATABASE_URL: `file:${existing}/market.sqlite` });
    expect(old.status).toBe(1);
    expect(old.output).toContain(
      `StartupError: DATABASE_URL file:${existing}/market.sqlite: the database ${existing}/market.sqlite cannot be opened`,
    );
  });

  it("starts when both are writable", () => {
    const dataDir = folder("data-ok", 0o777);
    const { status, output } = boot({ DATA_DIR: dataDir, DATABASE_URL: `file:${dataDir}/market.sqlite` });
    expect(output).toBe("booted");
    expect(status).toBe(0);
  }, 60_000);
});

describe.skipIf(ENGINE !== "sqlite")("a start-up that fails prints one line", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "market-cannot-start-"));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Runs server.ts as `npm run serve` would: its exit status, standard error, and whether it printed a stack. */
  const serve = (env: Record<string, string>) => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "server.ts"], {
      env: {
        PATH: process.env.PATH,
        HOME: tmp,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        DATA_DIR: tmp,
        SESSION_SECRET: "cannot-start-secret-cannot-start",
        MAIL_POLL_MS: "0",
        WEB_CONCURRENCY: "1",
        ...env,
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    const stderr = run.stderr.trim();
    return { status: run.status, stderr, lines: stderr.split("\n"), stack: /\n\s+at\s/.test(`${run.stdout}\n${run.stderr}`) };
  };

  it("names a bad environment variable", () => {
    const run = serve({ PORT: "not-a-port" });
    expect(run.status).toBe(1);
    expect(run.lines).toHaveLength(1);
    expect(run.stderr).toMatch(/^cannot start: Invalid environment configuration: PORT: /);
    expect(run.stack).toBe(false);
  });

  it("names an unreachable database without its password, in a single process and as a cluster's primary", () => {
    for (const workers of ["1", "2"]) {
      const run = serve({ DATABASE_URL: "postgres://market:s3cret@127.0.0.1:1/market", WEB_CONCURRENCY: workers });
      expect(run.status, workers).toBe(1);
      expect(run.lines, run.stderr).toHaveLength(1);
      expect(run.stderr).toMatch(
        /^cannot start: DATABASE_URL postgres:\/\/market:\*\*\*@127\.0\.0\.1:1\/market: the database cannot be reached: .*ECONNREFUSED/,
      );
      expect(run.stderr).not.toContain("s3cret");
      expect(run.stack).toBe(false);
    }
  });
});
