import type { DB } from "../db/db.server";

/**
 * The version of what the storefront publishes (the catalog, taxonomy, banners, keywords, pass prices, FAQ,
 * notices, events, policies, the user guide), bumped by triggers in the transaction of every change of those
 * tables (migration 0025), whichever process, server or script makes it. Each process reads it at most once per
 * CONTENT_VERSION_TTL_MS: the page micro-cache keys its pages by it, and in-process caches of published data are
 * dropped when it moves, so no worker serves what was changed for longer than about that.
 */
export const CONTENT_VERSION_TTL_MS = 1000;

type VersionCache = WeakMap<DB, { at: number; version: Promise<string> }>;
// One cache per process even when this module is loaded twice (server.ts imports the source, the Remix build
// bundles its own copy).
const registry = globalThis as { [key: symbol]: VersionCache | undefined };
const CACHE = Symbol.for("asset-market.content-version");
registry[CACHE] ??= new WeakMap();
const cache = registry[CACHE];

/** The version as stored now (no cache). */
export async function readContentVersion(db: DB): Promise<string> {
  const row = await db.selectFrom("content_version").select("version").where("id", "=", 1).executeTakeFirst();
  return String(row?.version ?? 0);
}

/** The version for serving a request: read from the database at most once per CONTENT_VERSION_TTL_MS per handle. */
export async function contentVersion(db: DB, now = Date.now()): Promise<string> {
  let hit = cache.get(db);
  if (!hit || now - hit.at >= CONTENT_VERSION_TTL_MS) {
    const version = readContentVersion(db);
    hit = { at: now, version };
    cache.set(db, hit);
    // A failed read is not kept: the next request asks again.
    version.catch(() => {
      if (cache.get(db)?.version === version) cache.delete(db);
    });
  }
  return hit.version;
}

/**
 * A value computed from published data, kept until the content version moves (checked at most once per
 * CONTENT_VERSION_TTL_MS). One per process and database handle.
 */
export function publishedCache<T>(load: (db: DB) => Promise<T>): (db: DB) => Promise<T> {
  const held = new WeakMap<DB, { version: string; value: Promise<T> }>();
  return async (db) => {
    const version = await contentVersion(db);
    const hit = held.get(db);
    if (hit && hit.version === version) return hit.value;
    const value = load(db);
    held.set(db, { version, value });
    value.catch(() => {
      if (held.get(db)?.value === value) held.delete(db);
    });
    return value;
  };
}
