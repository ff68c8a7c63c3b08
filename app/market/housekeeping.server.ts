import type { DB } from "../db/db.server";
import type { Storage } from "../integrations/storage/storage";
import { keepSince } from "./cart.server";
import { processHolder, runExclusive } from "./jobs.server";
import { sweepStaleAttachments } from "./support.server";

/**
 * Rows nothing reads any more, deleted on a schedule: download tokens past their expiry (each editor download
 * adds a hand-over token and a file link), cart lines past the 30 days a cart is kept (content and passes), and
 * expired sign-in sessions. Orders' idempotency keys live on the orders themselves and are kept with them; there
 * is no separate idempotency table.
 */
export interface PurgeCounts {
  download_tokens: number;
  sessions: number;
  sign_in_handoffs: number;
  carts: number;
  cart_passes: number;
}

export interface PurgeOptions {
  /** Rows per DELETE: each statement holds the write lock (SQLite) or its row locks only that long. */
  batchSize?: number;
  /** Batches per table per run; what is left waits for the next run. */
  maxBatches?: number;
}

async function inBatches(deleteBatch: (limit: number) => Promise<bigint>, { batchSize = 500, maxBatches = 200 }: PurgeOptions) {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = Number(await deleteBatch(batchSize));
    total += deleted;
    if (deleted < batchSize) break;
    // Let waiting requests in between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

/** Deletes what has expired at `now`, in bounded batches; answers how many rows went from each table. */
export async function purgeExpired(db: DB, now = new Date(), options: PurgeOptions = {}): Promise<PurgeCounts> {
  const at = now.toISOString();
  const cartsBefore = keepSince(now);
  const deleted = (r: { numDeletedRows: bigint }) => r.numDeletedRows;
  return {
    // A token is dead once expires_at <= now (resolveFileLink and redeemBridge refuse it).
    download_tokens: await inBatches(
      (limit) =>
        db
          .deleteFrom("download_tokens")
          .where("id", "in", (eb) => eb.selectFrom("download_tokens").select("id").where("expires_at", "<=", at).limit(limit))
          .executeTakeFirstOrThrow()
          .then(deleted),
      options,
    ),
    // The editor's sign-in hand-offs: redeemSignInHandOff refuses one once expires_at <= now.
    sign_in_handoffs: await inBatches(
      (limit) =>
        db
          .deleteFrom("sign_in_handoffs")
          .where("id", "in", (eb) => eb.selectFrom("sign_in_handoffs").select("id").where("expires_at", "<=", at).limit(limit))
          .executeTakeFirstOrThrow()
          .then(deleted),
      options,
    ),
    // findViewer accepts a session only while expires_at > now.
    sessions: await inBatches(
      (limit) =>
        db
          .deleteFrom("sessions")
          .where("id", "in", (eb) => eb.selectFrom("sessions").select("id").where("expires_at", "<=", at).limit(limit))
          .executeTakeFirstOrThrow()
          .then(deleted),
      options,
    ),
    // The cart shows a line while created_at >= keepSince(now).
    carts: await inBatches(
      (limit) =>
        db
          .deleteFrom("carts")
          .where("id", "in", (eb) => eb.selectFrom("carts").select("id").where("created_at", "<", cartsBefore).limit(limit))
          .executeTakeFirstOrThrow()
          .then(deleted),
      options,
    ),
    cart_passes: await inBatches(
      (limit) =>
        db
          .deleteFrom("cart_passes")
          .where("id", "in", (eb) => eb.selectFrom("cart_passes").select("id").where("created_at", "<", cartsBefore).limit(limit))
          .executeTakeFirstOrThrow()
          .then(deleted),
      options,
    ),
  };
}

export const PURGE_JOB = "purge-expired";

/**
 * purgeExpired, then the inquiry attachments a crash left half-written. The storage (DATA_DIR's disk or the shared
 * object store) is the one every process serves attachments from, so the process holding the lease sweeps it for all.
 */
export async function housekeeping(db: DB, storage: Storage | undefined, now = new Date()) {
  const counts = await purgeExpired(db, now);
  return storage ? { ...counts, stale_attachments: await sweepStaleAttachments(storage, now) } : counts;
}

/**
 * Runs housekeeping every `everyMs` (and once at start) in whichever process gets the lease first; the lease is
 * kept for most of the period, so it runs once per period across all processes. Answers a stop function.
 */
export function scheduleHousekeeping(
  db: DB,
  options: {
    everyMs: number;
    log: (fields: Record<string, unknown>) => void;
    /** The store's storage, for the attachment sweep. */
    storage?: Storage;
    holder?: string;
    leaseMs?: number;
    firstAfterMs?: number;
  },
): () => void {
  const holder = options.holder ?? processHolder();
  const leaseMs = options.leaseMs ?? 10 * 60_000;
  const run = () =>
    runExclusive(db, PURGE_JOB, { holder, leaseMs, cooldownMs: Math.floor(options.everyMs * 0.9) }, () => housekeeping(db, options.storage))
      .then((outcome) => {
        if (outcome.ran && Object.values(outcome.result).some((n) => n > 0))
          options.log({ level: "info", msg: "expired rows purged", ...outcome.result });
      })
      .catch((error) => options.log({ level: "error", msg: "purge of expired rows failed", error: String(error) }));
  const first = setTimeout(run, options.firstAfterMs ?? 5_000);
  const timer = setInterval(run, options.everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
