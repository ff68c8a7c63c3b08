import type { Readable } from "node:stream";

/**
 * Where the store's files live: the local disk under DATA_DIR (the default) or an S3-compatible object store
 * (STORAGE_URL). Keys are relative paths with "/" separators, the same under both: `storage/...` holds the
 * private originals and attachments (they leave only through the download and attachment routes), `media/...`
 * the public previews served at /media. Every file the store keeps goes through one of these.
 */
export interface Storage {
  readonly kind: "local" | "s3";
  /** Writes (or overwrites) a key from bytes or a stream; large streams go up in parts on S3. */
  put(key: string, body: Uint8Array | Readable, options?: { contentType?: string }): Promise<void>;
  /** The key's bytes as a stream (from `range.start` to `range.end` inclusive when given), or null when missing. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** The whole key in memory, or null when missing (small files only: fonts, peaks, attachments). */
  read(key: string): Promise<Buffer | null>;
  /** Size, validator and last change, or null when missing. */
  stat(key: string): Promise<StoredFile | null>;
  /** Removes a key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Moves a key to another name (a rename on disk, a copy then delete on S3). */
  move(from: string, to: string): Promise<void>;
  /** The keys under a prefix (which ends with "/"), with their size and last change. */
  list(prefix: string): Promise<ListedFile[]>;
  /** A short-lived address the client can GET the key from directly, or null when the store has none (local disk). */
  presignedGet(key: string, options: { expiresInS: number; filename?: string }): Promise<string | null>;
}

export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredFile {
  size: number;
  /** A strong validator, quoted (`"..."`). */
  etag: string;
  modified: Date;
}

export interface ListedFile {
  key: string;
  size: number;
  modified: Date;
}

/**
 * Checks a key: relative, "/"-separated, no empty, "." or ".." segment, no backslash or NUL. Every key a caller
 * builds from a database row or a request passes here, so no key can leave the store's root or prefix.
 */
export function checkKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
  return key;
}

export function isSafeKey(key: string): boolean {
  if (!key || key.length > 1024 || key.includes("\\") || key.includes("\0")) return false;
  return key.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/** Joins key parts with "/" (a part may itself hold "/"), and checks the result. */
export const storageKey = (...parts: string[]) => checkKey(parts.join("/"));

/** A prefix for list(): a checked key with a trailing "/". */
export const storagePrefix = (...parts: string[]) => `${storageKey(...parts)}/`;

/** Whether an error means the key is not there (either implementation). */
export function isMissing(error: unknown): boolean {
  const e = error as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.code === "ENOENT" || e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Whether an error means the storage has no room for a write: the local disk is full (ENOSPC) or the user's quota
 * is spent (EDQUOT), or the object store says so (HTTP 507 Insufficient Storage, MinIO's XMinioStorageFull). Not the
 * request's fault and not a bug: the doors answer 503 with Retry-After (app/utils/unavailable.server.ts). Looks
 * through `cause` a few levels, as a wrapped write error keeps the original there.
 */
export function isStorageFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { code?: unknown; name?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: number } };
    if (x.code === "ENOSPC" || x.code === "EDQUOT") return true;
    if (x.name === "XMinioStorageFull" || x.Code === "XMinioStorageFull" || x.$metadata?.httpStatusCode === 507) return true;
  }
  return false;
}
