import { randomBytes } from "node:crypto";
import os from "node:os";
import type { DB } from "../db/db.server";

/** Who is asking for a lease: this host and process, and a random part in case a pid is reused. */
export const processHolder = () => `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

export interface LeaseOptions {
  /** This process (see processHolder). */
  holder: string;
  /** How long the lease holds if the holder never releases it (a crash): longer than the job ever takes. */
  leaseMs: number;
  /**
   * Keep the lease this long from the start instead of releasing it when the job ends, so that processes whose
   * timers fire a little later skip this round too: the job then runs once per period across all processes.
   */
  cooldownMs?: number;
  now?: Date;
}

export type Exclusive<T> = { ran: true; result: T } | { ran: false };

/**
 * Takes the named lease with one conditional upsert: a new row, or the old row if its lease has expired. Only one
 * of any number of concurrent callers gets a row back (PostgreSQL locks the conflicting row and re-checks the
 * condition; SQLite has one writer), on both engines.
 */
export async function takeLease(db: DB, name: string, holder: string, leaseMs: number, now = new Date()): Promise<boolean> {
  const row = await db
    .insertInto("job_leases")
    .values({ name, holder, expires_at: new Date(now.getTime() + leaseMs).toISOString() })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet((eb) => ({ holder: eb.ref("excluded.holder"), expires_at: eb.ref("excluded.expires_at") }))
        .where("job_leases.expires_at", "<=", now.toISOString()),
    )
    .returning("holder")
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives the lease up (only if this holder still has it), or keeps it until `until`. */
export async function releaseLease(db: DB, name: string, holder: string, until?: Date): Promise<void> {
  if (until)
    await db
      .updateTable("job_leases")
      .set({ expires_at: until.toISOString() })
      .where("name", "=", name)
      .where("holder", "=", holder)
      .execute();
  else await db.deleteFrom("job_leases").where("name", "=", name).where("holder", "=", holder).execute();
}

/**
 * Runs `fn` only if this process gets the named lease; any other process (or a second call in this one) asking
 * while it is held skips. The lease is released when `fn` ends, whether it succeeded or threw; a lease whose
 * holder died expires after `leaseMs`.
 */
export async function runExclusive<T>(db: DB, name: string, options: LeaseOptions, fn: () => Promise<T>): Promise<Exclusive<T>> {
  const started = options.now ?? new Date();
  if (!(await takeLease(db, name, options.holder, options.leaseMs, started))) return { ran: false };
  try {
    return { ran: true, result: await fn() };
  } finally {
    const until = options.cooldownMs ? new Date(started.getTime() + options.cooldownMs) : undefined;
    // A lease that cannot be released (the database went away) expires by itself.
    await releaseLease(db, name, options.holder, until).catch(() => {});
  }
}
