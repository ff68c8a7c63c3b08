// The server's command line as package.json's "serve" script writes it (`NAME=value ... node <flags> server.ts`),
// so the benchmarks start the server with the same node flags and environment as production does.
import fs from "node:fs";

export function serveCommand(script?: string): { env: Record<string, string>; args: string[] } {
  const line = script ?? (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.serve;
  const words = line.trim().split(/\s+/);
  const node = words.indexOf("node");
  if (node < 0 || !words.includes("server.ts")) throw new Error(`the serve script does not run node ... server.ts: ${line}`);
  const env = Object.fromEntries(words.slice(0, node).map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]));
  return { env, args: words.slice(node + 1, words.indexOf("server.ts") + 1) };
}
