/**
 * The server's first start, as `npm run serve` and the end-to-end harness run it (a primary and two workers), and
 * what must never happen around it however slow the machine is (issue 25, point 10):
 *   - a worker queries a database its primary has not prepared: the SQLite file gone from under the running server
 *     (another start removing the same data folder) made each replacement worker create an empty file of its own
 *     and die on "no such table: search_state", again and again. A worker now waits for the database to be there,
 *     migrated and seeded, and says what it waits for; nothing is logged as an error;
 *   - a server killed during its first start leaves a process behind: the demo seed's child went on writing into
 *     the data folder after its server died (so a harness's `rm -rf` failed with "Directory not empty", and the
 *     next start found a half-made database). It now ends with its parent, before it writes the catalog; the
 *     workers end with the primary.
 * Nothing here waits for a fixed time: each step waits for what the server logs or for processes to go, with
 * bounds far above what a busy machine needs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { ENGINE } from "../support/engine";
import { freePort } from "../support/net";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Line = { pid?: number; level?: string; msg?: string; workerPid?: number; [k: string]: unknown };

/** The processes of a process group (the server is started as a group leader): pid and command line. */
function groupMembers(pgid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || Number(fields[2]) !== pgid) continue;
      out.push({ pid: Number(entry), cmd: fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ") });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function until<T>(
  what: string,
  probe: () => T | undefined | null | false,
  timeoutMs = 240_000,
  context: () => string = () => "",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${context()}`);
    await sleep(50);
  }
}

interface Started {
  server: ChildProcess;
  lines: Line[];
  stderr: () => string;
  dataDir: string;
  dbFile: string;
  port: number;
}

const started: Started[] = [];

async function start(env: Record<string, string>): Promise<Started> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "market-first-start-"));
  const dbFile = path.join(dataDir, "market.sqlite");
  const port = await freePort();
  const server = spawn(process.execPath, ["--max-semi-space-size=4", "--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `file:${dbFile}`,
      DATA_DIR: dataDir,
      SESSION_SECRET: "first-start-secret-first-start",
      LOG_REQUESTS: "false",
      MAIL_POLL_MS: "0",
      WEB_CONCURRENCY: "2",
      ...env,
    },
    // Its own process group, so every process it starts (workers, the seed child, their children) can be found.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Line[] = [];
  let err = "";
  let rest = "";
  server.stdout?.on("data", (d: Buffer) => {
    const parts = (rest + d.toString("utf8")).split("\n");
    rest = parts.pop() ?? "";
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as Line);
      } catch {
        lines.push({ level: "raw", msg: part });
      }
    }
  });
  server.stderr?.on("data", (d: Buffer) => {
    err += d;
  });
  const s = { server, lines, stderr: () => err, dataDir, dbFile, port };
  started.push(s);
  return s;
}

afterEach(async () => {
  for (const s of started.splice(0)) {
    if (s.server.pid) {
      try {
        process.kill(-s.server.pid, "SIGKILL");
      } catch {
        // already gone
      }
      await until("the server's processes to end", () => groupMembers(s.server.pid as number).length === 0, 30_000).catch(() => {});
    }
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
});

const errorsOf = (s: Started) => s.lines.filter((l) => l.level === "error" || /SqliteError|no such table/.test(String(l.msg)));

describe.skipIf(ENGINE !== "sqlite")("the server's first start on a busy machine", () => {
  it("a worker never opens, creates or queries a database its primary has not prepared; it waits for it", async () => {
    const s = await start({ AUTO_SEED: "false" });
    const listening = (pid: number) => s.lines.some((l) => l.pid === pid && String(l.msg).startsWith("store listening"));
    const workers = await until("two workers listening", () => {
      const pids = s.lines.filter((l) => l.msg === "worker started").map((l) => Number(l.workerPid));
      return pids.length === 2 && pids.every(listening) ? pids : null;
    });
    // The database goes from under the running server (as when another start removes the same data folder) and a
    // worker has to be replaced.
    const aside = path.join(s.dataDir, "aside");
    fs.mkdirSync(aside);
    for (const f of fs.readdirSync(s.dataDir))
      if (f.startsWith("market.sqlite")) fs.renameSync(path.join(s.dataDir, f), path.join(aside, f));
    process.kill(workers[0], "SIGKILL");
    // The replacement either waits for the database (and says so) or, as before, makes an empty one and dies on it.
    const outcome = await until(
      "the replacement worker to wait or to fail",
      () => {
        if (s.lines.some((l) => String(l.msg).startsWith("waiting for the database"))) return "waits";
        if (/no such table/.test(s.stderr()) || s.lines.filter((l) => l.msg === "worker died").length > 1) return "failed";
        const third = s.lines.filter((l) => l.msg === "worker started")[2];
        if (third && listening(Number(third.workerPid))) return "served without the database";
        return null;
      },
      240_000,
      () => `${JSON.stringify(s.lines.slice(-20), null, 1)}\n${s.stderr()}`,
    );
    expect(outcome, s.stderr()).toBe("waits");
    expect(fs.existsSync(s.dbFile), "a worker created an empty database").toBe(false);
    const waiting = s.lines.find((l) => String(l.msg).startsWith("waiting for the database"));
    expect(String(waiting?.msg)).toContain("does not exist");
    // The database comes back: the waiting worker opens it and serves, and nothing was logged as an error.
    for (const f of fs.readdirSync(aside)) fs.renameSync(path.join(aside, f), path.join(s.dataDir, f));
    const replacement = await until("the replacement worker listening", () => {
      const pids = s.lines.filter((l) => l.msg === "worker started").map((l) => Number(l.workerPid));
      return pids.length === 3 && listening(pids[2]) ? pids[2] : null;
    });
    expect(replacement).not.toBe(workers[0]);
    const health = await fetch(`http://127.0.0.1:${s.port}/healthz`);
    expect(health.status).toBe(200);
    expect(errorsOf(s).filter((l) => l.msg !== "worker died")).toEqual([]);
    expect(s.stderr()).toBe("");
    // The primary killed outright: its workers end with it.
    const pgid = s.server.pid as number;
    process.kill(pgid, "SIGKILL");
    await until("the workers to end with their primary", () => groupMembers(pgid).length === 0);
  }, 600_000);

  it("a server killed during its first start leaves no seed child writing into its data folder", async () => {
    const s = await start({ AUTO_SEED: "true", SEED_SIZE: "120" });
    const pgid = s.server.pid as number;
    // As soon as the seed's child exists, the server dies (as a harness's start timeout or the OOM killer does it).
    const seed = await until("the seed child", () => groupMembers(pgid).find((p) => p.cmd.includes("scripts/seed.ts")));
    process.kill(pgid, "SIGKILL");
    // Whatever is left of the group ends (without the fix the child went on and wrote the whole catalog).
    await until("every process of the first start to end", () => groupMembers(pgid).length === 0);
    expect(fs.existsSync(`/proc/${seed.pid}`) && !fs.readFileSync(`/proc/${seed.pid}/stat`, "utf8").includes(") Z ")).toBe(false);
    // Nothing was written into the folder after the server died: the seed child had not got past its imports, and
    // (without the fix) went on to copy the demo media into DATA_DIR/media, its first writes, before its first log
    // line hit the closed pipe.
    expect(fs.existsSync(path.join(s.dataDir, "media")), "the seed child wrote media after its server died").toBe(false);
    // The folder holds no catalog the seed finished after its server was gone.
    if (fs.existsSync(s.dbFile)) {
      const db = new Database(s.dbFile, { readonly: true });
      try {
        const hasSettings = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'settings'").get();
        const seeded = hasSettings ? db.prepare("SELECT value FROM settings WHERE key = 'seeded_at'").get() : undefined;
        expect(seeded, "the seed child went on and wrote the catalog after its server died").toBeUndefined();
      } finally {
        db.close();
      }
    }
    // And the folder can be removed at once, nothing writing into it.
    fs.rmSync(s.dataDir, { recursive: true });
    expect(fs.existsSync(s.dataDir)).toBe(false);
  }, 600_000);
});
