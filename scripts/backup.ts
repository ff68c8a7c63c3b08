// npm run backup -- <folder>: a consistent copy of the store's database and files while it keeps serving.
import { createStorage } from "../app/integrations/storage/index.server";
import { parseEnv } from "../app/utils/env.server";
import { backupStore } from "./backup-store";

const folder = process.argv[2];
if (!folder) {
  console.error("usage: npm run backup -- <folder>   (a new or empty folder)");
  process.exit(2);
}
try {
  const env = parseEnv();
  const started = Date.now();
  const m = await backupStore(env.DATABASE_URL, createStorage(env), folder);
  const rows = Object.values(m.database.tables).reduce((a, b) => a + b, 0);
  const what = m.files.copied
    ? `${m.files.count} files (${(m.files.bytes / 1048576).toFixed(1)} MiB) copied`
    : `${m.files.count} objects listed`;
  console.log(
    `backup of ${m.database.engine} written to ${folder}: ${Object.keys(m.database.tables).length} tables, ${rows} rows, ${what}, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (error) {
  console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
