import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createStorage } from "../integrations/storage/index.server";
import { currentFacets } from "../market/search/facets.server";
import { ensureSearchIndex } from "../market/search/indexer.server";
import type { Env } from "../utils/env.server";
import { createDb, type DB, migrateToLatest } from "./db.server";
import { isDatabaseUnavailable } from "./errors";
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
 * good (docs/performance.md). Resolves when the child has finished; its output goes to the server's log.
 */
function seedInChild(log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = path.resolve("scripts/seed.ts");
    const child = spawn(process.execPath, ["--import", "tsx", script], { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    const relay = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) log(line.trim());
    };
    child.stdout.on("data", relay);
    child.stderr.on("data", relay);
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the demo seed exited with ${code}`))));
  });
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
  options: { seedProcess?: "child" | "self"; openOnly?: boolean; facets?: boolean } = {},
): Promise<DB> {
  ensureDataDir(env.DATA_DIR);
  let db: DB;
  try {
    db = createDb(env.DATABASE_URL);
  } catch (error) {
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
