// The server's command line as package.json's "serve" script writes it (`NAME=value ... node <flags> server.ts`),
// so the benchmarks start the server with the same node flags and environment as production does.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export function serveCommand(script?: string): { env: Record<string, string>; args: string[] } {
  const line = script ?? (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.serve;
  const words = line.trim().split(/\s+/);
  const node = words.indexOf("node");
  if (node < 0 || !words.includes("server.ts")) throw new Error(`the serve script does not run node ... server.ts: ${line}`);
  const env = Object.fromEntries(words.slice(0, node).map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]));
  return { env, args: words.slice(node + 1, words.indexOf("server.ts") + 1) };
}

export interface BenchServer {
  child: ChildProcess;
  pid: number;
  /** The node arguments and the serve script's environment it was started with (for the report). */
  args: string[];
  env: Record<string, string>;
  /** Stops the server (SIGTERM); from then on its exit is expected. */
  stop: () => void;
}

/**
 * Starts the server exactly as `npm run serve` does (its node flags and environment; extra node flags go last
 * before the script, so they override the serve script's own) on a kept data folder, waits for /healthz (a first
 * start seeds the catalog: some two minutes for 100,000 items), and ends the bench if the server dies under it.
 */
export async function startBenchServer(options: {
  name: string;
  port: number;
  dir: string;
  size: number;
  extraNodeArgs?: string[];
  extraEnv?: Record<string, string>;
}): Promise<BenchServer> {
  const serve = serveCommand();
  const args = [...serve.args.slice(0, -1), ...(options.extraNodeArgs ?? []), ...serve.args.slice(-1)];
  const base = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      ...serve.env,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      PUBLIC_URL: base,
      DATABASE_URL: `file:${path.join(options.dir, "market.sqlite")}`,
      DATA_DIR: options.dir,
      SEED_SIZE: String(options.size),
      LOG_REQUESTS: "false",
      SESSION_SECRET: "bench-secret-bench-secret",
      ...options.extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let stopping = false;
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${options.name}: the server exited (code ${code}, signal ${signal})`);
    process.exit(1);
  });
  const stop = () => {
    stopping = true;
    child.kill("SIGTERM");
  };
  process.on("SIGINT", () => {
    stop();
    process.exit(130);
  });
  const t0 = performance.now();
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (performance.now() - t0 > 30 * 60_000) throw new Error("the server did not start in 30 minutes");
    await new Promise((r) => setTimeout(r, 200));
  }
  console.error(`server ${child.pid} up in ${Math.round(performance.now() - t0)} ms (${args.join(" ")})`);
  return { child, pid: child.pid as number, args, env: { ...serve.env, ...options.extraEnv }, stop };
}

/** The started process's children that run server.ts: the cluster's workers (not the seed child or esbuild). */
export function workersOf(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`))
      for (const word of fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(/\s+/)) if (word) children.push(Number(word));
  } catch {
    return [];
  }
  return children.filter((child) => {
    try {
      // cluster.fork runs the primary's script by its absolute path.
      return fs
        .readFileSync(`/proc/${child}/cmdline`, "utf8")
        .split("\0")
        .some((arg) => arg === "server.ts" || arg.endsWith("/server.ts"));
    } catch {
      return false;
    }
  });
}
