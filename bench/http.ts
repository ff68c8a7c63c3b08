// A closed-loop HTTP load generator (no pipelining): C connections each send the next request when the
// previous answer has arrived, for D seconds over a rotating list of paths. Prints requests/s and latency
// percentiles. Loopback targets only.
//   node --import tsx bench/http.ts http://127.0.0.1:3000 /video /audio --connections 32 --seconds 10
import http from "node:http";

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function load(
  base: string,
  paths: string[],
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const url = new URL(base);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) throw new Error("benchmarks target loopback only");
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const deadline = performance.now() + seconds * 1000;
  const one = (path: string) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get({ host: url.hostname, port: url.port, path, agent, headers }, (res) => {
        res.resume();
        res.on("end", () => {
          if ((res.statusCode ?? 500) >= 400) errors++;
          latencies.push(performance.now() - t0);
          resolve();
        });
      });
      req.on("error", () => {
        errors++;
        resolve();
      });
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await one(paths[next++ % paths.length]);
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    requests: sorted.length,
    errors,
    rps: Math.round(sorted.length / elapsed),
    p50: r(pct(sorted, 50)),
    p95: r(pct(sorted, 95)),
    p99: r(pct(sorted, 99)),
    max: r(sorted[sorted.length - 1] ?? 0),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
  };
  const connections = opt("connections", 32);
  const seconds = opt("seconds", 10);
  const [base, ...paths] = args;
  console.log(JSON.stringify(await load(base, paths.length ? paths : ["/"], connections, seconds)));
}
