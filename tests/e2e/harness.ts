import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import config from "../../playwright.config";
import { ROOT } from "./routes";

/**
 * A private instance of the real server (server.ts, the built app, every guard) for the specs that send many
 * hostile or cross-account requests: it runs on a copy of the e2e database, so what they write never reaches
 * the other specs' shared data, and its log is captured, so a test can assert no error-level line was written.
 * It starts from the data folder Playwright's own server seeded (a few seconds: nothing to seed again).
 */
export interface PrivateServer {
  baseURL: string;
  dataDir: string;
  /** The database file of this instance (for arranging data and re-reading it). */
  dbFile: string;
  /** Log lines written so far (stdout and stderr). */
  lines: () => string[];
  /** Error-level lines since `from` (an index into lines()): JSON lines with level error, and anything on stderr. */
  errorsSince: (from: number) => string[];
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startPrivateServer(name: string): Promise<PrivateServer> {
  const webServer = (Array.isArray(config.webServer) ? config.webServer[0] : config.webServer) as { env: Record<string, string> };
  const shared = path.resolve(ROOT, webServer.env.DATA_DIR);
  const dataDir = `${shared}-${name}`;
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  // A consistent copy of the live database (the shared server may be writing), and the media and files it names.
  const source = new Database(path.join(shared, "market.sqlite"), { readonly: true, fileMustExist: true });
  try {
    await source.backup(path.join(dataDir, "market.sqlite"));
  } finally {
    source.close();
  }
  for (const sub of ["media", "storage"])
    if (fs.existsSync(path.join(shared, sub))) fs.cpSync(path.join(shared, sub), path.join(dataDir, sub), { recursive: true });
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    ...webServer.env,
    PORT: String(port),
    PUBLIC_URL: baseURL,
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${dataDir}/market.sqlite`,
  };
  const lines: string[] = [];
  const stderrFrom = new Set<number>();
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (stream: NodeJS.ReadableStream | null, isErr: boolean) => {
    let rest = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      for (const p of parts) {
        if (isErr) stderrFrom.add(lines.length);
        lines.push(p);
      }
    });
  };
  collect(child.stdout, false);
  collect(child.stderr, true);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`private server exited (${child.exitCode}):\n${lines.join("\n")}`);
    const ok = await fetch(`${baseURL}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`private server did not start:\n${lines.join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseURL,
    dataDir,
    dbFile: path.join(dataDir, "market.sqlite"),
    lines: () => lines,
    errorsSince: (from) =>
      lines.slice(from).filter((line, i) => {
        try {
          return (JSON.parse(line) as { level?: string }).level === "error";
        } catch {
          // Anything not a log line on stderr (a crash, an unhandled rejection) counts as an error.
          return stderrFrom.has(from + i) && line.trim() !== "";
        }
      }),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 6000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One request as sent: headers and body exactly as given (fetch, manual redirects). */
export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** What the request is, for failure messages. */
  label?: string;
  /** The route it addresses (a page route id, or "METHOD path" of an API endpoint). */
  route?: string;
  /** The one right answer, where the corpus knows it (a guard's refusal: 400, 403, 405, 413, 415). */
  expect?: number;
}

export interface Answer {
  status: number;
  headers: Headers;
  type: string;
  text: string;
}

const BINARY = /^(font|image|audio|video)\/|application\/(pdf|octet-stream|zip)/;

/** Methods fetch refuses to send: they go out through node:http. */
const FETCH_FORBIDDEN = new Set(["TRACE", "TRACK"]);

/** One request on its own connection (no kept-alive socket to race the server's idle timeout over). */
function sendWithHttp(baseURL: string, r: Sent): Promise<Answer> {
  const url = new URL(r.path, baseURL);
  return new Promise((resolve, reject) => {
    const options = { host: url.hostname, port: url.port, path: r.path, method: r.method, headers: r.headers, agent: false };
    const req = http.request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
        const type = headers.get("content-type") ?? "";
        const text = BINARY.test(type) ? "" : Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers, type, text });
      });
    });
    req.on("error", reject);
    req.end(r.body);
  });
}

/** Why a request got no answer: fetch's "fetch failed" says nothing; its cause names the socket's fate. */
export function failureOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause ? `${String(error)}: ${cause.code ?? ""} ${cause.message ?? ""}`.trim() : String(error);
}

/**
 * A kept-alive connection the server closed as idle while this request was being written on it ("other side
 * closed", a reset): the race every HTTP client has with a keep-alive timeout, not an answer of the server. Such a
 * request is sent once more on a fresh connection; a request that then gets no answer either is reported.
 */
const STALE_SOCKET = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

export async function send(baseURL: string, r: Sent): Promise<Answer> {
  if (FETCH_FORBIDDEN.has(r.method)) return sendWithHttp(baseURL, r);
  let res: Response;
  try {
    res = await fetch(baseURL + r.path, {
      method: r.method,
      headers: r.headers,
      body: r.body as BodyInit | undefined,
      redirect: "manual",
    });
  } catch (error) {
    const code = (error as { cause?: { code?: string } })?.cause?.code;
    if (!code || !STALE_SOCKET.has(code)) throw new Error(failureOf(error));
    return sendWithHttp(baseURL, r).catch((again) => {
      throw new Error(`${failureOf(error)}; again on a fresh connection: ${failureOf(again)}`);
    });
  }
  const type = res.headers.get("content-type") ?? "";
  const buf = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, type, text: BINARY.test(type) ? "" : buf.toString("utf8") };
}

/** Runs `tasks` with at most `width` in flight; answers their results in order. */
export async function pool<T, R>(items: T[], width: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

/** What a stack trace or an internal error looks like in a body. */
const TRACE_SIGNS: [string, RegExp][] = [
  ["stack frame", /^ {2,}at \S/m],
  ["stack frame with a file", /\bat [^\n]{0,200}\((?:file:\/\/)?\/[^)\n]+:\d+:\d+\)/],
  ["error with a file path", /\b\w*Error:[^\n]{0,300}(?:\/[\w.@-]+){2,}\.(?:[cm]?js|tsx?)\b/],
  ["SqliteError", /SqliteError|SQLITE_[A-Z]+/],
  ["node_modules", /node_modules/],
  ["server file path", new RegExp(`${ROOT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:app|build|server)`)],
];

/** The first sign of a stack trace or internal error in an answer's body, or null. */
export function traceIn(a: Answer): string | null {
  for (const [name, re] of TRACE_SIGNS) {
    const m = re.exec(a.text);
    if (m) return `${name}: ${a.text.slice(Math.max(0, m.index - 80), m.index + 160).replace(/\s+/g, " ")}`;
  }
  return null;
}
