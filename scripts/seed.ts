// npm run seed: migrates DATABASE_URL and writes the demo catalog (SEED_SIZE items) if it is empty.
// --reset drops every table first, so the catalog can be rebuilt at another size.
import { sql } from "kysely";
import { createDb, MAINTENANCE_SESSION, migrateToLatest } from "../app/db/db.server";
import { isPostgres } from "../app/db/dialect";
import { down } from "../app/db/migrations/0001_initial";
import { down as downSearch } from "../app/db/migrations/0002_search";
import { down as downWithdrawals } from "../app/db/migrations/0003_withdrawals";
import { countRows, seedDatabase } from "../app/db/seed/index.server";
import { createStorage } from "../app/integrations/storage/index.server";
import { parseEnv } from "../app/utils/env.server";

// Started by the server's first start (app/db/boot.server.ts), which names itself in SEED_PARENT_PID: when this
// process's parent is no longer that server (it died, killed during a slow first start, say, and this process was
// handed to init), nobody waits for this seed, so it stops instead of writing on into a data folder a harness may be
// removing. (An IPC channel cannot tell: under `--import tsx` the child has none.) Checked at once, since the
// imports above take a while, and then five times a second without keeping this process alive.
const parentPid = Number(process.env.SEED_PARENT_PID ?? 0);
if (parentPid) {
  const orphaned = () => process.ppid !== parentPid;
  if (orphaned()) process.exit(70);
  setInterval(() => orphaned() && process.exit(70), 200).unref();
}
const env = parseEnv();
const db = createDb(env.DATABASE_URL, MAINTENANCE_SESSION);
if (process.argv.includes("--reset")) {
  await downWithdrawals(db);
  await downSearch(db);
  await down(db);
  await db.schema.dropTable("kysely_migration").ifExists().execute();
  await db.schema.dropTable("kysely_migration_lock").ifExists().execute();
  if (!isPostgres(db)) await sql`VACUUM`.execute(db);
  console.log("dropped all tables");
}
await migrateToLatest(db);
const t0 = Date.now();
const result = await seedDatabase(db, {
  size: env.SEED_SIZE,
  dataDir: env.DATA_DIR,
  storage: createStorage(env),
  mediaCacheDir: env.MEDIA_CACHE_DIR,
  log: console.log,
});
if (result.skipped) console.log(`already seeded (${await countRows(db, "contents")} items); use --reset to rebuild`);
else console.log(`seeded ${result.contents} items in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
await db.destroy();
