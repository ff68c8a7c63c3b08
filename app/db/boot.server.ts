import { currentFacets } from "../market/search/facets.server";
import { ensureSearchIndex } from "../market/search/indexer.server";
import type { Env } from "../utils/env.server";
import { createDb, type DB, migrateToLatest } from "./db.server";
import { seedDatabase } from "./seed/index.server";

/** Opens, migrates and (on first start) seeds the database named by the environment. */
export async function bootDatabase(env: Env, log: (line: string) => void = console.log): Promise<DB> {
  const db = createDb(env.DATABASE_URL);
  const migrated = await migrateToLatest(db);
  const applied = migrated.results?.filter((r) => r.status === "Success").map((r) => r.migrationName) ?? [];
  if (applied.length) log(`migrations applied: ${applied.join(", ")}`);
  const reindexed = await ensureSearchIndex(db);
  if (reindexed) log(`search index built for ${reindexed} items`);
  if (env.AUTO_SEED) {
    const t0 = Date.now();
    const result = await seedDatabase(db, { size: env.SEED_SIZE, dataDir: env.DATA_DIR, log });
    if (!result.skipped) log(`demo catalog of ${result.contents} items written in ${Date.now() - t0} ms`);
  }
  // The search's in-memory catalog columns, so the first search does not wait for them.
  const t0 = Date.now();
  const facets = await currentFacets(db);
  log(`search facets of ${facets.byPopular.length} items loaded in ${Date.now() - t0} ms`);
  return db;
}
