import type { DB } from "../db/db.server";
import type { Gateways } from "../integrations/payments/index.server";
import { processHolder, runExclusive } from "./jobs.server";
import { expireVirtualAccounts } from "./orders/expire.server";
import { reconcileOpenOrders } from "./orders/orders.server";
import { pruneRateLimits } from "./rate-limits.server";

type Log = (fields: Record<string, unknown>) => void;
type Result = Record<string, number>;

export interface PeriodicJob {
  /** The job's lease (a row of job_leases) and its name in the log. */
  name: string;
  everyMs: number;
  /** The first run, this long after start. */
  firstAfterMs: number;
  /**
   * Once per period across all processes: the lease is kept for 90% of the period after a run starts, so the
   * processes whose timers fire later in the period skip. Without it the lease is given up when the run ends and
   * any process may take the next one (for work that is claimed row by row anyway).
   */
  oncePerPeriod: boolean;
  /** A read that says whether there is anything to do; the lease (a write) is asked for only then. */
  hasWork?: () => Promise<boolean>;
  run: () => Promise<Result>;
  /** Log every run (which process ran it, how long, what it did), not only runs that did something. */
  logEveryRun?: boolean;
}

/**
 * Runs a job every `everyMs` in this process, under its lease: whichever process (worker or server) takes the lease
 * runs it, the others skip. A run never overlaps the previous one in the same process (the next is timed from the
 * end of the last). A lease whose holder died expires after twice the period (30 s to 10 minutes); the jobs are safe
 * to run twice besides (each order or notification is claimed by a conditional update).
 */
export function schedulePeriodic(db: DB, job: PeriodicJob, options: { holder: string; log: Log }): () => void {
  const leaseMs = Math.min(10 * 60_000, Math.max(30_000, 2 * job.everyMs));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    const t0 = Date.now();
    try {
      if (!job.hasWork || (await job.hasWork())) {
        const outcome = await runExclusive(
          db,
          job.name,
          { holder: options.holder, leaseMs, cooldownMs: job.oncePerPeriod ? Math.floor(job.everyMs * 0.9) : undefined },
          job.run,
        );
        if (outcome.ran && (job.logEveryRun || Object.values(outcome.result).some((n) => n > 0)))
          options.log({ level: "info", msg: "job", job: job.name, ms: Date.now() - t0, ...outcome.result });
      }
    } catch (error) {
      options.log({ level: "error", msg: `job ${job.name} failed`, error: String(error) });
    } finally {
      if (!stopped) {
        timer = setTimeout(tick, Math.max(0, job.everyMs - (Date.now() - t0)));
        timer.unref();
      }
    }
  };
  timer = setTimeout(tick, job.firstAfterMs);
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * The server's payment and rate-limit timers, each run once across every worker and server (leases in the
 * database): the sandbox gateway's webhook deliveries (every second, when some are due), the virtual-account
 * expiry (every VBANK_EXPIRY_INTERVAL_S; 0 turns it and the reconciliation off on this server), the reconciliation
 * of open orders (five times that, and once soon after start) and the pruning of rate-limit counters past their
 * window (hourly; each process also sweeps every 500 hits). Answers a function that stops them all.
 */
export function startScheduledJobs(
  db: DB,
  options: { payments: Gateways; vbankExpiryIntervalS: number; log: Log; holder?: string },
): () => void {
  const { payments, log } = options;
  const holder = options.holder ?? processHolder();
  const jobs: PeriodicJob[] = [];
  const sandbox = payments.sandbox;
  if (sandbox)
    jobs.push({
      name: "sandbox-webhooks",
      everyMs: 1000,
      firstAfterMs: 1000,
      oncePerPeriod: false,
      hasWork: () => sandbox.hasDue(),
      run: async () => ({ delivered: await sandbox.deliverDue() }),
    });
  if (options.vbankExpiryIntervalS > 0) {
    const every = options.vbankExpiryIntervalS * 1000;
    jobs.push({
      name: "vbank-expiry",
      everyMs: every,
      firstAfterMs: every,
      oncePerPeriod: true,
      logEveryRun: true,
      run: () => expireVirtualAccounts(db, payments),
    });
    jobs.push({
      name: "reconciliation",
      everyMs: every * 5,
      firstAfterMs: 1000,
      oncePerPeriod: true,
      logEveryRun: true,
      run: () => reconcileOpenOrders(db, payments),
    });
  }
  jobs.push({
    name: "rate-limit-prune",
    everyMs: 60 * 60_000,
    firstAfterMs: 60 * 60_000,
    oncePerPeriod: true,
    logEveryRun: true,
    run: async () => ({ pruned: await pruneRateLimits(db) }),
  });
  const stops = jobs.map((job) => schedulePeriodic(db, job, { holder, log }));
  return () => {
    for (const stop of stops) stop();
  };
}
