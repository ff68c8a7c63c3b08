import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type MigrationResultSet, Migrator, PostgresDialect, sql } from "kysely";
import type PG from "pg";
import { databaseUnavailableCode } from "./errors";
import { migrations } from "./migrations";
import type { Database } from "./schema";
import { probeSqliteWriteLock, RetryingSqliteDialect } from "./sqlite-dialect.server";

export type DB = Kysely<Database>;

let pgModule: typeof PG | undefined;
/** pg, loaded with the first PostgreSQL database: a store on SQLite never holds it (about 15 MB). */
export function loadPg(): typeof PG {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)("pg") as typeof PG;
    // PostgreSQL returns COUNT(*) and other int8 values as strings; our counts fit in a JS number.
    pgModule.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
  }
  return pgModule;
}

/**
 * The SQLite handle behind each Kysely instance, for the health probe. On globalThis: server.ts opens the database
 * with its copy of this module, the built app bundles another.
 */
const registry = globalThis as Record<symbol, WeakMap<object, SQLite.Database> | undefined>;
const HANDLES = Symbol.for("asset-market.sqlite-handles");
registry[HANDLES] ??= new WeakMap();
const handles = registry[HANDLES];

/**
 * How long a PostgreSQL session waits for a lock another session holds (a row, a table, the audit chain's advisory
 * lock) before its statement fails with 55P03: the same 2 s SQLite waits for its write lock, so a held lock answers
 * a clear 503 (app/db/errors.ts counts 55P03 as DATABASE_BUSY) instead of a request that hangs for as long as the
 * lock is held.
 */
export const PG_LOCK_TIMEOUT_MS = 2_000;
/**
 * The longest one statement may run on a PostgreSQL session before the server cancels it (57014, DATABASE_BUSY,
 * 503): far above any web query (tens of milliseconds), so it only ends runaway ones, which would otherwise keep a
 * pool connection and their locks for good.
 */
export const PG_STATEMENT_TIMEOUT_MS = 30_000;
/** Sessions that migrate, index and seed (start-up, scripts): no lock or statement timeout, as before. */
export const MAINTENANCE_SESSION = { lockTimeoutMs: 0, statementTimeoutMs: 0 } as const;

export const isPostgresUrl = (url: string) => url.startsWith("postgres://") || url.startsWith("postgresql://");

/**
 * Opens the database named by a DATABASE_URL (`file:...` for SQLite, `postgres://...`). SQLite waits at most
 * `busyBudgetMs` (asynchronously) for another process's write lock before a statement fails with DatabaseBusyError;
 * each PostgreSQL session has `lock_timeout` and `statement_timeout` (PG_LOCK_TIMEOUT_MS, PG_STATEMENT_TIMEOUT_MS by
 * default; 0 is none), set when the pool opens it.
 */
export function createDb(
  url: string,
  options: { poolSize?: number; busyBudgetMs?: number; lockTimeoutMs?: number; statementTimeoutMs?: number } = {},
): DB {
  if (isPostgresUrl(url)) {
    // Short web queries: parallel plans cost more than they save, and re-run hashed subplans per worker. Random
    // reads cost about what sequential ones do on SSDs: without saying so, a broad full-text match reads and
    // tests every row of the index table instead of only those the GIN index names.
    const pg = loadPg();
    const lockTimeout = options.lockTimeoutMs ?? PG_LOCK_TIMEOUT_MS;
    const statementTimeout = options.statementTimeoutMs ?? PG_STATEMENT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      // Startup parameters of every connection the pool opens (pg sends none for 0: the server's default, none).
      options: "-c max_parallel_workers_per_gather=0 -c random_page_cost=1.1",
      lock_timeout: lockTimeout > 0 ? lockTimeout : undefined,
      statement_timeout: statementTimeout > 0 ? statementTimeout : undefined,
    });
    // An idle connection the server closes (restart, failover, a dropped test database) is discarded by the pool;
    // without a listener its error would crash the process.
    pool.on("error", (error) =>
      console.warn(JSON.stringify({ level: "warn", msg: "idle database connection lost", error: String(error) })),
    );
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const sqlite = openSqlite(url);
  const db = new Kysely<Database>({ dialect: new RetryingSqliteDialect({ database: sqlite, busyBudgetMs: options.busyBudgetMs }) });
  handles.set(db, sqlite);
  return db;
}

/**
 * Opens a SQLite file for reading and writing, or fails with a message that names DATABASE_URL and the path (not
 * a bare "unable to open database file" or, later, "attempt to write a readonly database").
 */
function openSqlite(url: string): SQLite.Database {
  const file = url.replace(/^file:/, "");
  const memory = file === ":memory:";
  const absolute = memory ? file : path.resolve(file);
  try {
    if (!memory) {
      // WAL keeps two more files beside the database (-wal, -shm): its folder must be writable too.
      fs.mkdirSync(path.dirname(absolute), { recursive: true });
      fs.accessSync(path.dirname(absolute), fs.constants.W_OK);
      if (fs.existsSync(absolute)) fs.accessSync(absolute, fs.constants.R_OK | fs.constants.W_OK);
    }
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    // No waiting on the event loop: RetryingSqliteDialect waits for a busy lock with timers instead.
    sqlite.pragma("busy_timeout = 0");
    return sqlite;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `DATABASE_URL ${url}: the database ${absolute} cannot be opened for reading and writing (its folder ${path.dirname(absolute)} must be writable as well): ${reason}`,
      { cause: error },
    );
  }
}

/** The SQLite file behind a database, or null (PostgreSQL, in-memory). */
export function databaseFile(db: DB): string | null {
  const file = handles.get(db)?.name;
  return file && file !== ":memory:" ? path.resolve(file) : null;
}

/**
 * Whether the database answers now (the health check): "busy" when SQLite's write lock stayed with another
 * process, or PostgreSQL gave no answer, for `timeoutMs`; "unreachable" when it cannot be read at all.
 */
export async function probeDatabase(db: DB, timeoutMs = 500): Promise<"ok" | "busy" | "unreachable"> {
  const sqlite = handles.get(db);
  if (sqlite) return probeSqliteWriteLock(sqlite, timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"busy">((resolve) => {
    timer = setTimeout(() => resolve("busy"), timeoutMs);
  });
  try {
    return await Promise.race([sql`select 1`.execute(db).then(() => "ok" as const), late]);
  } catch (error) {
    return databaseUnavailableCode(error) === "DATABASE_BUSY" ? "busy" : "unreachable";
  } finally {
    clearTimeout(timer);
  }
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: DB): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === "Error");
    const err = result.error instanceof Error ? result.error : new Error(String(result.error));
    err.message = `Migration ${failed?.migrationName ?? "?"} failed: ${err.message}`;
    throw err;
  }
  return result;
}

let shared: DB | undefined;

/** The process-wide database, opened on first use from DATABASE_URL. */
export function getDb(): DB {
  if (!shared) {
    shared = createDb(process.env.DATABASE_URL || "file:./data/market.sqlite");
  }
  return shared;
}

/** Replaces the process-wide database (server start-up and tests). */
export function setDb(db: DB): void {
  shared = db;
}
