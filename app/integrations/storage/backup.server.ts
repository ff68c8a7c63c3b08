import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { checkKey, type Storage } from "./storage";

/**
 * The store's files in a backup. From the local disk they are copied into `<folder>/files/<key>` with their
 * SHA-256; from an object store only listed (key, size, validator): the bucket keeps its own copies (versioning,
 * replication), and a restore checks that every listed object is still there.
 */

/** The key prefixes the store writes under (storage.ts): private originals and attachments, public media. */
export const STORE_PREFIXES = ["storage/", "media/"] as const;

export interface FileEntry {
  key: string;
  size: number;
  /** Of the copied bytes (local disk). */
  sha256?: string;
  /** The object store's validator (object storage). */
  etag?: string;
}

export interface FilesCopy {
  storage: "local" | "s3";
  copied: boolean;
  count: number;
  bytes: number;
  list: FileEntry[];
}

/** A half-written upload (`.part-*`, local.server.ts) is not a file of the store. */
const isPartial = (key: string) => path.posix.basename(key).startsWith(".part-");

async function listAll(storage: Storage) {
  const out = [];
  for (const prefix of STORE_PREFIXES) out.push(...(await storage.list(prefix)));
  return out.filter((f) => !isPartial(f.key));
}

/** Whether the storage holds no file of the store. */
export async function isEmptyStorage(storage: Storage): Promise<boolean> {
  return (await listAll(storage)).length === 0;
}

const hashing = (hash: ReturnType<typeof createHash>) =>
  new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });

/**
 * Copies (local disk) or lists (object store) every file of the store. A file removed between the listing and its
 * copy (a purge while the backup runs) is left out; one added after the listing is not in this backup.
 */
export async function backupFiles(storage: Storage, folder: string): Promise<FilesCopy> {
  const listed = await listAll(storage);
  const list: FileEntry[] = [];
  if (storage.kind === "s3") {
    for (const f of listed) {
      const stat = await storage.stat(f.key);
      if (stat) list.push({ key: f.key, size: stat.size, etag: stat.etag });
    }
  } else {
    for (const f of listed) {
      const body = await storage.get(f.key);
      if (!body) continue;
      const target = path.join(folder, "files", checkKey(f.key));
      await fs.mkdir(path.dirname(target), { recursive: true });
      const hash = createHash("sha256");
      await pipeline(body, hashing(hash), createWriteStream(target));
      list.push({ key: f.key, size: (await fs.stat(target)).size, sha256: hash.digest("hex") });
    }
  }
  return {
    storage: storage.kind,
    copied: storage.kind !== "s3",
    count: list.length,
    bytes: list.reduce((n, f) => n + f.size, 0),
    list,
  };
}

/**
 * Puts the backup's files into the storage (each checked against its SHA-256 on the way), or, for a backup of an
 * object store, checks that every listed object is in the storage with its size. Throws naming what is missing
 * or damaged.
 */
export async function restoreFiles(storage: Storage, folder: string, files: FilesCopy): Promise<{ count: number; bytes: number }> {
  if (!files.copied) {
    const missing: string[] = [];
    for (const f of files.list) {
      const stat = await storage.stat(f.key);
      if (!stat || stat.size !== f.size) missing.push(f.key);
    }
    if (missing.length)
      throw new Error(
        `${missing.length} of the backup's ${files.count} objects are missing or changed in the object store, e.g. ${missing[0]}`,
      );
    return { count: files.count, bytes: files.bytes };
  }
  let bytes = 0;
  for (const f of files.list) {
    const source = path.join(folder, "files", checkKey(f.key));
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(source)) hash.update(chunk as Buffer);
    if (hash.digest("hex") !== f.sha256) throw new Error(`the backup's copy of ${f.key} is damaged (its SHA-256 differs)`);
    await storage.put(f.key, createReadStream(source));
    bytes += f.size;
  }
  return { count: files.list.length, bytes };
}
