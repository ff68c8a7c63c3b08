// The store's backup and restore (npm run backup / npm run restore): the database and the files, with a manifest
// that a restore is checked against. The pieces are in app/db/backup.server.ts (the database) and
// app/integrations/storage/backup.server.ts (the files).
import fs from "node:fs";
import path from "node:path";
import { backupDatabase, type DatabaseCopy, isEmptyDatabase, restoreDatabase } from "../app/db/backup.server";
import { backupFiles, type FilesCopy, isEmptyStorage, restoreFiles } from "../app/integrations/storage/backup.server";
import type { Storage } from "../app/integrations/storage/storage";

export interface BackupManifest {
  format: 1;
  started_at: string;
  finished_at: string;
  database: DatabaseCopy;
  files: FilesCopy;
}

const MANIFEST = "manifest.json";

/** Writes a backup of the store at `databaseUrl` + `storage` into `folder` (new or empty); the manifest last. */
export async function backupStore(databaseUrl: string, storage: Storage, folder: string): Promise<BackupManifest> {
  if (fs.existsSync(folder) && fs.readdirSync(folder).length)
    throw new Error(`${folder} is not empty: a backup goes into a new or empty folder`);
  fs.mkdirSync(folder, { recursive: true });
  const started = new Date();
  // The database first, then the files: every file a row of the copy names was written before its row (uploads
  // and media jobs store the file, then record it), so it is there when the files are copied.
  const database = await backupDatabase(databaseUrl, folder);
  const files = await backupFiles(storage, folder);
  const manifest: BackupManifest = { format: 1, started_at: started.toISOString(), finished_at: new Date().toISOString(), database, files };
  fs.writeFileSync(path.join(folder, `${MANIFEST}.part`), JSON.stringify(manifest, null, 1));
  fs.renameSync(path.join(folder, `${MANIFEST}.part`), path.join(folder, MANIFEST));
  return manifest;
}

export function readManifest(folder: string): BackupManifest {
  const file = path.join(folder, MANIFEST);
  if (!fs.existsSync(file)) throw new Error(`${folder} holds no finished backup (no ${MANIFEST})`);
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as BackupManifest;
  if (manifest.format !== 1) throw new Error(`${file}: unknown backup format ${String(manifest.format)}`);
  return manifest;
}

/**
 * Fills an empty store (DATABASE_URL without tables, storage without files) from a backup, then checks it: the
 * row count of every table as the backup recorded it, every file's bytes. Refuses a store that is not empty.
 */
export async function restoreStore(databaseUrl: string, storage: Storage, folder: string) {
  const manifest = readManifest(folder);
  if (!(await isEmptyDatabase(databaseUrl)))
    throw new Error(`DATABASE_URL ${databaseUrl} is not empty: a restore fills only an empty database (nothing was changed)`);
  if (manifest.files.copied && !(await isEmptyStorage(storage)))
    throw new Error(
      `the store's files (${storage.kind === "s3" ? "STORAGE_URL" : "DATA_DIR"}) are not empty: a restore fills only an empty store (nothing was changed)`,
    );
  const tables = await restoreDatabase(databaseUrl, folder, manifest.database);
  const differing = Object.entries(manifest.database.tables).filter(([name, n]) => tables[name] !== n);
  if (differing.length)
    throw new Error(
      `restored tables differ from the backup: ${differing.map(([name, n]) => `${name} ${tables[name] ?? "missing"} of ${n}`).join(", ")}`,
    );
  const files = await restoreFiles(storage, folder, manifest.files);
  return { manifest, tables, files };
}
