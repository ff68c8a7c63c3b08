// npm run restore -- <folder>: fills the configured, empty DATABASE_URL and DATA_DIR (or STORAGE_URL) from a backup.
import { createStorage } from "../app/integrations/storage/index.server";
import { parseEnv } from "../app/utils/env.server";
import { restoreStore } from "./backup-store";

const folder = process.argv[2];
if (!folder) {
  console.error("usage: npm run restore -- <folder>   (a folder written by npm run backup)");
  process.exit(2);
}
try {
  const env = parseEnv();
  const r = await restoreStore(env.DATABASE_URL, createStorage(env), folder);
  const rows = Object.values(r.tables).reduce((a, b) => a + b, 0);
  console.log(
    `restored the backup of ${r.manifest.finished_at} into ${env.DATABASE_URL}: ${Object.keys(r.tables).length} tables, ${rows} rows, ${r.files.count} files checked`,
  );
} catch (error) {
  console.error(`restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
