import cluster, { type Worker } from "node:cluster";
import { bootDatabase } from "../db/boot.server";
import { sessionSecret } from "./cookies.server";
import type { Env } from "./env.server";

type Log = (fields: Record<string, unknown>) => void;

/** How long the primary waits for its workers to finish their requests and stop before it kills them. */
export const SHUTDOWN_MS = 10_000;
/** A worker that died this long after its last restart is not part of a crash loop any more. */
export const CRASH_WINDOW_MS = 60_000;

/**
 * How long to wait before replacing a dead worker, given how many workers died within CRASH_WINDOW_MS (this one
 * included): the first at once, then 1 s, 2 s, 4 s ... up to 30 s, so a worker that cannot start (a database that
 * is down, a broken build) does not make the primary fork in a tight loop.
 */
export function restartDelayMs(recentDeaths: number): number {
  if (recentDeaths <= 1) return 0;
  return Math.min(30_000, 1000 * 2 ** (recentDeaths - 2));
}

/** A cluster message as Node's cluster module sends it between the primary and a worker (internal/cluster/utils). */
type ClusterMessage = { cmd?: unknown; act?: unknown; seq?: unknown; ack?: unknown };
/** A connection's handle while it is on its way to a worker (a libuv TCP handle in the primary). */
type ConnectionHandle = { close(): void };
/** The worker's ChildProcess as the primary sees it: its IPC send and the events the cluster uses. */
type WorkerChannel = {
  send: (...args: unknown[]) => boolean;
  on(event: "internalMessage", listener: (message: unknown) => void): unknown;
  once(event: "disconnect" | "exit", listener: () => void): unknown;
};

/**
 * Closes the connections a dead worker took with it. Node's cluster (round-robin, the default on Linux) accepts each
 * connection in the primary and sends its handle to a worker over the IPC channel ({ cmd: "NODE_CLUSTER", act:
 * "newconn", seq }); the primary closes its own copy only when the worker answers that it took it ({ ack: seq,
 * accepted }). A worker that dies before it answers (SIGKILL, a crash, the OOM killer) never does, and nothing in
 * Node closes that copy: the client's connection stays open with nobody to answer it, until the client gives up
 * (one such connection per killed worker under load, since the primary sends a worker one at a time). So the primary
 * keeps the handles it has sent a worker until their answer, and closes those still waiting when the worker's
 * channel or process ends: their clients see the connection closed at once and can try again.
 *
 * This reads Node's cluster messages, which are not a public API (Node 20 to 24): if they change, nothing is tracked
 * and the old hang comes back, which tests/integration/cluster.test.ts ("leaves no connection hanging") catches.
 */
export function closeConnectionsLostWith(worker: Worker): void {
  const proc = worker.process as unknown as WorkerChannel;
  const waiting = new Map<unknown, ConnectionHandle>();
  const send = proc.send;
  proc.send = (message: unknown, handle?: unknown, ...rest: unknown[]) => {
    const m = message as ClusterMessage | null;
    if (m && m.cmd === "NODE_CLUSTER" && m.act === "newconn" && handle && typeof (handle as ConnectionHandle).close === "function")
      waiting.set(m.seq, handle as ConnectionHandle);
    return send.call(proc, message, handle, ...rest);
  };
  proc.on("internalMessage", (received: unknown) => {
    const message = received as ClusterMessage | null;
    if (message && message.cmd === "NODE_CLUSTER" && message.ack !== undefined) waiting.delete(message.ack);
  });
  const closeWaiting = () => {
    for (const handle of waiting.values()) {
      try {
        handle.close();
      } catch {
        // already closed
      }
    }
    waiting.clear();
  };
  proc.once("disconnect", closeWaiting);
  proc.once("exit", closeWaiting);
}

/**
 * The cluster's primary (WEB_CONCURRENCY > 1; server.ts calls this before it opens anything). It boots the database
 * once (migrations, the first start's demo seed, in this process and its seed child), then forks WEB_CONCURRENCY
 * workers, each running server.ts, which only opens the database and serves: Node's cluster hands each incoming
 * connection to a worker in turn. A worker that dies is replaced (with a back-off when they keep dying); SIGTERM or
 * SIGINT asks every worker to finish its requests and stop, and the primary exits 0 when they have (killing those
 * still running after SHUTDOWN_MS). Never returns: the process ends in process.exit.
 */
export async function runPrimary(env: Env, log: Log): Promise<never> {
  const booted = await bootDatabase(env, (line) => log({ level: "info", msg: line }), { seedProcess: "child", facets: false });
  await booted.destroy();
  // The generated session secret (when SESSION_SECRET is unset) exists before any worker reads it.
  sessionSecret(env);

  let stopping = false;
  const deaths: number[] = [];
  const pending = new Set<NodeJS.Timeout>();
  const fork = () => {
    const worker = cluster.fork();
    closeConnectionsLostWith(worker);
    log({ level: "info", msg: "worker started", worker: worker.id, workerPid: worker.process.pid });
  };
  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
  cluster.on("exit", (worker: Worker, code: number | null, signal: string | null) => {
    if (stopping) {
      if (alive().length === 0) {
        log({ level: "info", msg: "every worker stopped" });
        process.exit(0);
      }
      return;
    }
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && now - deaths[0] > CRASH_WINDOW_MS) deaths.shift();
    const delay = restartDelayMs(deaths.length);
    log({ level: "error", msg: "worker died", worker: worker.id, workerPid: worker.process.pid, code, signal, restartInMs: delay });
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!stopping) fork();
    }, delay);
    pending.add(timer);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    const workers = alive();
    log({ level: "info", msg: `${signal}: stopping ${workers.length} workers` });
    if (workers.length === 0) process.exit(0);
    // Each worker closes its listener, finishes the requests it has and exits (server.ts's own shutdown).
    for (const worker of workers) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of alive()) worker.process.kill("SIGKILL");
      process.exit(0);
    }, SHUTDOWN_MS).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  for (let i = 0; i < env.WEB_CONCURRENCY; i++) fork();
  log({ level: "info", msg: `cluster primary: ${env.WEB_CONCURRENCY} workers on port ${env.PORT}` });
  // The primary lives on its workers' channels and its signal handlers until process.exit.
  return new Promise<never>(() => {});
}
