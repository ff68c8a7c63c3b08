/**
 * The real server as `npm run serve` starts it, with WEB_CONCURRENCY=2: a primary and two workers sharing the port.
 * Which worker answered is read from the server's own log (each line carries its process id; the test sends its
 * own X-Request-Id), so nothing in the answers tells the public. Checks: both workers answer; an item changed
 * through the domain while its page sits in both workers' page caches is shown changed by both within about a
 * second; a timer job runs once per period across the workers; a killed worker is replaced while the other keeps
 * answering; a worker killed with a connection on its way to it leaves no client hanging; SIGTERM stops the
 * workers and the primary exits 0.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { renameItem } from "../support/catalog";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { freePort } from "../support/net";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

type Line = { time: string; pid: number; msg?: string; requestId?: string; job?: string; workerPid?: number; [k: string]: unknown };

describe(`the server as a cluster of two workers on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let port: number;
  let server: ChildProcess;
  let exited: Promise<number | null>;
  const lines: Line[] = [];
  let stderr = "";
  const base = () => `http://127.0.0.1:${port}`;

  /**
   * One GET on a connection of its own (the cluster hands out connections, not requests) with a fresh request id:
   * the answer and the pid of the worker that logged it.
   */
  async function get(path: string): Promise<{ status: number; body: string; cache: string | null; pid: number }> {
    const id = `cluster-${randomUUID()}`;
    const res = await new Promise<{ status: number; body: string; cache: string | null }>((resolve, reject) => {
      const headers = { "x-request-id": id, cookie: "lng=en" };
      const req = http.get(`${base()}${path}`, { agent: false, headers, timeout: 5000 }, (r) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () =>
          resolve({
            status: r.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            cache: (r.headers["x-cache"] as string) ?? null,
          }),
        );
        r.on("error", reject);
      });
      req.on("timeout", () => req.destroy(new Error("timed out")));
      req.on("error", reject);
    });
    for (let i = 0; i < 50; i++) {
      const line = lines.find((l) => l.requestId === id);
      if (line) return { ...res, pid: line.pid };
      await sleep(20);
    }
    throw new Error(`no log line for ${id}`);
  }
  const workerPids = () => {
    const started = lines.filter((l) => l.msg === "worker started").map((l) => Number(l.workerPid));
    const died = new Set(lines.filter((l) => l.msg === "worker died").map((l) => Number(l.workerPid)));
    return started.filter((p) => !died.has(p));
  };
  const listening = (pid: number) => lines.some((l) => l.pid === pid && String(l.msg).startsWith("store listening"));

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    port = await freePort();
    server = spawn(process.execPath, ["--max-semi-space-size=4", "--import", "tsx", "server.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        MALLOC_ARENA_MAX: "2",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: t.url,
        DATA_DIR: t.dataDir,
        AUTO_SEED: "false",
        SESSION_SECRET: "cluster-secret-cluster-secret",
        LOG_REQUESTS: "true",
        VBANK_EXPIRY_INTERVAL_S: "1",
        MAIL_POLL_MS: "0",
        WEB_CONCURRENCY: "2",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    exited = new Promise((resolve) => server.once("exit", (code) => resolve(code)));
    let rest = "";
    server.stdout?.on("data", (d: Buffer) => {
      const parts = (rest + d.toString("utf8")).split("\n");
      rest = parts.pop() ?? "";
      for (const part of parts) {
        try {
          lines.push(JSON.parse(part) as Line);
        } catch {
          // not a log line
        }
      }
    });
    server.stderr?.on("data", (d: Buffer) => {
      stderr += d;
    });
    for (let i = 0; i < 900; i++) {
      if (server.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      const pids = workerPids();
      if (pids.length === 2 && pids.every(listening)) return;
      await sleep(100);
    }
    throw new Error(`the workers did not start: ${stderr}`);
  }, 120_000);

  afterAll(async () => {
    if (server.exitCode === null) server.kill("SIGKILL");
    for (const pid of workerPids()) if (alive(pid)) process.kill(pid, "SIGKILL");
    await drop();
  });

  it("answers with both workers, never with the primary", async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 8; i++) {
      const res = await get("/healthz");
      expect(res.status).toBe(200);
      seen.add(res.pid);
    }
    expect([...seen].sort()).toEqual(workerPids().sort());
    expect(seen.has(server.pid as number)).toBe(false);
  });

  it("shows an item changed through the domain on every worker within about a second, though its page was cached", async () => {
    const item = await db
      .selectFrom("contents")
      .selectAll()
      .where("status", "=", "active")
      .where("contents_type", "=", "icon")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const page = `/contents/icon?code=${item.code}`;
    // Both workers hold the page: each has answered it from its cache at least once.
    const hits = new Set<number>();
    for (let i = 0; i < 40 && hits.size < 2; i++) {
      const res = await get(page);
      expect(res.status).toBe(200);
      expect(res.body).toContain(item.title_en);
      if (res.cache === "HIT") hits.add(res.pid);
    }
    expect(hits.size).toBe(2);

    const title = `Renamed ${randomUUID().slice(0, 8)}`;
    const changed = await renameItem(db, item.id, title);
    expect(changed).toEqual({ ok: true });
    const t0 = Date.now();
    // Every worker shows the new title once its one-second view of the content version has moved. Times are of
    // when each request was sent (a busy machine may be slow to answer; what counts is what the answer was of).
    const fresh = new Map<number, number>();
    while (fresh.size < 2 && Date.now() - t0 < 10_000) {
      const sent = Date.now() - t0;
      const res = await get(page);
      if (res.body.includes(title)) fresh.set(res.pid, fresh.get(res.pid) ?? sent);
      else expect(sent, `worker ${res.pid} still shows the old title`).toBeLessThan(1500);
      await sleep(50);
    }
    expect(fresh.size).toBe(2);
    for (const ms of fresh.values()) expect(ms).toBeLessThan(1500);
    // And from then on only the new one.
    for (let i = 0; i < 4; i++) expect((await get(page)).body).toContain(title);
  });

  it("runs a timer job once per period across both workers", async () => {
    // The virtual-account expiry runs every second (VBANK_EXPIRY_INTERVAL_S=1) in each worker's timer.
    const from = Date.now();
    await sleep(6000);
    const runs = lines.filter((l) => l.job === "vbank-expiry" && Date.parse(l.time) >= from && Date.parse(l.time) < from + 6000);
    // Once a second across the cluster (the lease is kept for 90% of the period): about 6, never the 12 that two
    // workers' timers would make without it.
    expect(runs.length).toBeGreaterThanOrEqual(4);
    expect(runs.length).toBeLessThanOrEqual(8);
    for (const run of runs) expect(workerPids()).toContain(run.pid);
  });

  it("replaces a killed worker while the other keeps answering", async () => {
    const [victim, survivor] = workerPids();
    process.kill(victim, "SIGKILL");
    const t0 = Date.now();
    while (Date.now() - t0 < 3000) {
      // A connection handed to the dying worker may fail once; the next goes to the survivor.
      const res = await get("/healthz").catch(() => get("/healthz"));
      expect(res.status).toBe(200);
      await sleep(100);
    }
    let replacement = 0;
    for (let i = 0; i < 300 && !replacement; i++) {
      replacement = workerPids().find((p) => p !== survivor && p !== victim && listening(p)) ?? 0;
      if (!replacement) await sleep(100);
    }
    expect(replacement).toBeGreaterThan(0);
    expect(alive(victim)).toBe(false);
    const seen = new Set<number>();
    for (let i = 0; i < 8; i++) seen.add((await get("/healthz")).pid);
    expect([...seen].sort()).toEqual([survivor, replacement].sort());
  }, 60_000);

  it("leaves no connection hanging when a worker is killed with a connection on its way to it", async () => {
    /** One GET on its own connection: answered, closed (reset, hung up) or still open after `patienceMs`. */
    const attempt = (patienceMs: number) =>
      new Promise<{ outcome: "answered" | "closed" | "hanging"; at: number }>((resolve) => {
        const done = (outcome: "answered" | "closed" | "hanging") => {
          clearTimeout(timer);
          resolve({ outcome, at: Date.now() });
        };
        const req = http.get(`${base()}/healthz`, { agent: false }, (r) => {
          r.resume();
          r.on("end", () => done("answered"));
          r.on("error", () => done("closed"));
        });
        req.on("error", () => done("closed"));
        const timer = setTimeout(() => {
          req.destroy();
          done("hanging");
        }, patienceMs);
      });
    const [victim, survivor] = workerPids();
    // A stopped worker reads nothing from its channel: the primary hands it the next connection and waits for a
    // "taken" that never comes, while the other connections go to the survivor. Then the worker dies.
    process.kill(victim, "SIGSTOP");
    const pending = Array.from({ length: 6 }, () => attempt(10_000));
    await sleep(1500);
    process.kill(victim, "SIGKILL");
    const killedAt = Date.now();
    const results = await Promise.all(pending);
    expect(results.filter((r) => r.outcome === "hanging")).toEqual([]);
    // The connection the dead worker never took is closed at once, not left to the client's patience.
    expect(results.filter((r) => r.outcome === "closed").length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect(r.at - killedAt, "settled after the kill (ms)").toBeLessThan(3000);
    expect(results.filter((r) => r.outcome === "answered").length).toBeGreaterThanOrEqual(1);
    // The cluster goes on: a replacement starts and both answer.
    let replacement = 0;
    for (let i = 0; i < 300 && !replacement; i++) {
      replacement = workerPids().find((p) => p !== survivor && p !== victim && listening(p)) ?? 0;
      if (!replacement) await sleep(100);
    }
    expect(replacement).toBeGreaterThan(0);
    expect((await get("/healthz")).status).toBe(200);
  }, 60_000);

  it("stops the workers and exits 0 on SIGTERM", async () => {
    const pids = workerPids();
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of pids) {
      for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
      expect(alive(pid)).toBe(false);
    }
  }, 30_000);
});
