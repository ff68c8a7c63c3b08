import fs from "node:fs/promises";
import path from "node:path";
import { type DB, databaseFile, probeDatabase } from "../db/db.server";
import type { Storage } from "../integrations/storage/storage";

/** Below this much free space the disk counts as full: SQLite's WAL, uploads and logs need room to grow. */
export const MIN_FREE_BYTES = 100 * 1024 * 1024;

export interface Health {
  ok: boolean;
  /** "busy": another process has held SQLite's write lock (or PostgreSQL has not answered) for half a second. */
  database: "ok" | "busy" | "unreachable";
  /** DATA_DIR (and the SQLite file's folder, when elsewhere): writable, with at least MIN_FREE_BYTES free. */
  disk: { ok: boolean; freeBytes: number; writable: boolean };
  /** The object store of STORAGE_URL answers (a lookup of one key); "ok" on the local disk, which `disk` covers. */
  storage: "ok" | "unreachable";
}

/** How long the object store may take to answer the health check's lookup. */
export const STORAGE_PROBE_MS = 2000;

/** Whether the object store answers a lookup of one key (found or not) within `timeoutMs`. */
async function probeStorage(storage: Storage, timeoutMs: number): Promise<"ok" | "unreachable"> {
  if (storage.kind === "local") return "ok";
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"unreachable">((resolve) => {
    timer = setTimeout(() => resolve("unreachable"), timeoutMs);
  });
  try {
    return await Promise.race([
      storage.stat("health/probe").then(
        () => "ok" as const,
        () => "unreachable" as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Free bytes for this process on the file system holding `dir`, and whether it may write there. */
async function folder(dir: string): Promise<{ freeBytes: number; writable: boolean }> {
  try {
    const [stats, info] = await Promise.all([fs.statfs(dir), fs.stat(dir)]);
    const writable =
      info.isDirectory() &&
      (await fs.access(dir, fs.constants.W_OK).then(
        () => true,
        () => false,
      ));
    return { freeBytes: stats.bavail * stats.bsize, writable };
  } catch {
    return { freeBytes: 0, writable: false };
  }
}

/**
 * The server's health for /healthz: the database answers (SQLite: its write lock can be taken), DATA_DIR is a
 * writable folder on a disk that is not full, and the object store (when STORAGE_URL names one) answers. `ok`
 * only when all of it is.
 */
export async function checkHealth(
  db: DB,
  dataDir: string,
  options: { minFreeBytes?: number; storage?: Storage; storageTimeoutMs?: number } = {},
): Promise<Health> {
  const minFree = options.minFreeBytes ?? MIN_FREE_BYTES;
  const file = databaseFile(db);
  const dirs = [...new Set([path.resolve(dataDir), ...(file ? [path.dirname(file)] : [])])];
  const [database, storage, ...folders] = await Promise.all([
    probeDatabase(db),
    options.storage ? probeStorage(options.storage, options.storageTimeoutMs ?? STORAGE_PROBE_MS) : ("ok" as const),
    ...dirs.map(folder),
  ]);
  const freeBytes = Math.min(...folders.map((f) => f.freeBytes));
  const writable = folders.every((f) => f.writable);
  const disk = { ok: writable && freeBytes >= minFree, freeBytes, writable };
  return { ok: database === "ok" && disk.ok && storage === "ok", database, disk, storage };
}
