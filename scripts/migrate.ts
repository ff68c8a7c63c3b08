// npm run db:migrate: applies pending migrations to DATABASE_URL (SQLite file by default).
import { createDb, MAINTENANCE_SESSION, migrateToLatest } from "../app/db/db.server";
import { parseEnv } from "../app/utils/env.server";

const env = parseEnv();
const db = createDb(env.DATABASE_URL, MAINTENANCE_SESSION);
const result = await migrateToLatest(db);
for (const r of result.results ?? []) console.log(`${r.status}: ${r.migrationName}`);
if (!result.results?.length) console.log("database is up to date");
await db.destroy();
