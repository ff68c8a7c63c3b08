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
