import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Migrator } from "kysely";
import { createStorage } from "../integrations/storage/index.server";
import { currentFacets } from "../market/search/facets.server";
import { ensureSearchIndex } from "../market/search/indexer.server";
import type { Env } from "../utils/env.server";
import { createDb, type DB, isPostgresUrl, MAINTENANCE_SESSION, migrateToLatest } from "./db.server";
import { isDatabaseUnavailable } from "./errors";
import { migrations } from "./migrations";
import { isSeeded, seedDatabase } from "./seed/index.server";

/** A start-up failure the operator fixes in the environment: its message says what and where, without a stack. */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StartupError";
  }
}

/** DATA_DIR holds the media, the private files and (by default) the database: the server must be able to write it. */
export function ensureDataDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StartupError(`DATA_DIR ${dataDir} is not writable (${path.resolve(dataDir)}): ${reason}`, { cause: error });
  }
}

/**
 * A start-up error for a database that cannot be reached at all (PostgreSQL down, refused, unknown host, wrong
 * password or database name; SQLite's file gone unreadable), naming DATABASE_URL without its password.
 */
function unreachable(url: string, error: unknown): StartupError | null {
  const code = String((error as { code?: unknown })?.code ?? "");
  const network = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ECONNRESET"].includes(code);
  if (!network && !/^(08|28|3D|57P0)/.test(code) && !isDatabaseUnavailable(error)) return null;
  const shown = url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
  const reason = error instanceof Error ? error.message : String(error);
  return new StartupError(`DATABASE_URL ${shown}: the database cannot be reached: ${reason}${code ? ` (${code})` : ""}`, { cause: error });
}

/**
 * Seeds the demo catalog in a child process (`scripts/seed.ts`, the same environment), so the server process does
 * not keep the seeding's garbage: at 100,000 items it raised the first start's resident memory by some 50 MB for
 * good (docs/performance.md). Resolves when the child has finished; its output goes to the server's log. The child
 * knows this process (SEED_PARENT_PID) and exits as soon as its parent is another: a server killed during its first
 * start (a harness's start timeout, SIGKILL) leaves no seed behind still writing into DATA_DIR.
 */
function seedInChild(log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = path.resolve("scripts/seed.ts");
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      env: { ...process.env, SEED_PARENT_PID: String(process.pid) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // A parent that exits on its own (an error, a signal it handles) takes the child down at once as well.
    const stopChild = () => child.kill("SIGKILL");
    process.once("exit", stopChild);
    const relay = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) log(line.trim());
    };
    child.stdout.on("data", relay);
    child.stderr.on("data", relay);
    child.on("error", (error) => {
      process.off("exit", stopChild);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      process.off("exit", stopChild);
      if (code === 0) resolve();
      else reject(new Error(`the demo seed exited with ${code ?? signal}`));
    });
  });
}

/** How long a worker waits for the database its primary prepares before it gives up (and is restarted). */
export const READY_WAIT_MS = 120_000;

/**
 * What keeps the database from serving yet: its SQLite file is missing, migrations are not all applied, or (with
 * AUTO_SEED) the demo catalog is not written. Null when it is ready. Reads only: never creates the file or a table.
 */
export async function databaseNotReady(env: Env, db: DB | null): Promise<string | null> {
  const file = sqliteFile(env.DATABASE_URL);
  if (file && !fs.existsSync(file)) return `the SQLite file ${file} does not exist`;
  if (!db) return null;
  const known = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).getMigrations();
  const pending = known.filter((m) => !m.executedAt).map((m) => m.name);
  if (pending.length) return `${pending.length} of ${known.length} migrations not applied (first: ${pending[0]})`;
  if (env.AUTO_SEED && !(await isSeeded(db))) return "the demo catalog is not written yet";
  return null;
}

function sqliteFile(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const file = url.replace(/^file:/, "");
  return file === ":memory:" ? null : path.resolve(file);
}

/**
 * A cluster's worker: waits until the database its primary booted is there and migrated (and seeded, on a first
 * start with AUTO_SEED) before anything in it queries. The primary forks workers only after its boot, so this is
 * normally one look; it matters when the database is not the one the primary prepared (DATA_DIR removed or replaced
 * under a running server, another start over the same folder): the worker then never creates an empty SQLite file
 * of its own (which used to end in "no such table: search_state" and a crash loop) but waits, and after
 * READY_WAIT_MS stops with a message saying what is missing.
 */
async function waitUntilReady(env: Env, log: (line: string) => void, waitMs: number): Promise<DB> {
  const deadline = Date.now() + waitMs;
  let db: DB | null = null;
  let said = "";
  for (;;) {
    if (!db && !(await databaseNotReady(env, null))) db = createDb(env.DATABASE_URL);
    const reason = await databaseNotReady(env, db).catch((error) => {
      throw unreachable(env.DATABASE_URL, error) ?? error;
    });
    if (!reason && db) return db;
    if (reason && reason !== said) log(`waiting for the database: ${reason}`);
    said = reason ?? "";
    if (Date.now() > deadline) {
      await db?.destroy();
      throw new StartupError(
        `DATABASE_URL ${env.DATABASE_URL.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@")} is not ready after ${Math.round(waitMs / 1000)} s: ${reason}. ` +
          "The primary prepares it before it starts the workers: was DATA_DIR removed or replaced under the running server?",
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Opens, migrates and (on first start) seeds the database named by the environment. `seedProcess: "child"` (the
 * server) seeds in a child process when the database is empty; tests seed in their own process. `openOnly` (a
 * cluster's worker: its primary has booted the database) only opens it and loads the search facets; `facets: false`
 * (the primary, which serves nothing) leaves those out.
 */
export async function bootDatabase(
  env: Env,
  log: (line: string) => void = console.log,
  options: { seedProcess?: "child" | "self"; openOnly?: boolean; facets?: boolean; readyWaitMs?: number } = {},
): Promise<DB> {
  ensureDataDir(env.DATA_DIR);
  let db: DB;
  try {
    // Migrations, the search index and the seed may take locks and long statements: a session without the web's
    // lock and statement timeouts; the database then serves through a pool with them (below).
    db = options.openOnly
      ? await waitUntilReady(env, log, options.readyWaitMs ?? READY_WAIT_MS)
      : createDb(env.DATABASE_URL, MAINTENANCE_SESSION);
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw new StartupError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (!options.openOnly) {
    const migrated = await migrateToLatest(db).catch((error) => {
      throw unreachable(env.DATABASE_URL, error) ?? error;
    });
    const applied = migrated.results?.filter((r) => r.status === "Success").map((r) => r.migrationName) ?? [];
    if (applied.length) log(`migrations applied: ${applied.join(", ")}`);
    const reindexed = await ensureSearchIndex(db);
    if (reindexed) log(`search index built for ${reindexed} items`);
    if (env.AUTO_SEED) {
      const t0 = Date.now();
      if (options.seedProcess === "child" && fs.existsSync(path.resolve("scripts/seed.ts")) && !(await isSeeded(db)))
        await seedInChild(log);
      const result = await seedDatabase(db, {
        size: env.SEED_SIZE,
        dataDir: env.DATA_DIR,
        storage: createStorage(env),
        mediaCacheDir: env.MEDIA_CACHE_DIR,
        log,
      });
      if (!result.skipped) log(`demo catalog of ${result.contents} items written in ${Date.now() - t0} ms`);
    }
    if (isPostgresUrl(env.DATABASE_URL)) {
      await db.destroy();
      db = createDb(env.DATABASE_URL);
    }
  }
  if (options.facets === false) return db;
  // The search's in-memory catalog columns, so the first search does not wait for them.
  const t0 = Date.now();
  const facets = await currentFacets(db).catch((error) => {
    throw unreachable(env.DATABASE_URL, error) ?? error;
  });
  log(`search facets of ${facets.byPopular.length} items loaded in ${Date.now() - t0} ms`);
  return db;
}
