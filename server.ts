// The store's HTTP server: Express with compression, security headers, caching of fingerprinted build
// files, the media folder, a health check, one log line per request, and the Remix handler.
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import url from "node:url";
import { createRemixRequest } from "@remix-run/express/dist/server.js";
import { type AppLoadContext, broadcastDevReady, createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { sql } from "kysely";
import "./app/context";
import { bootDatabase } from "./app/db/boot.server";
import { resolveLanguage } from "./app/i18n/language.server";
import { createHttpCountryResolver } from "./app/integrations/geo/country.server";
import { createGateways } from "./app/integrations/payments/index.server";
import { expireVirtualAccounts } from "./app/market/orders/expire.server";
import { reconcileOpenOrders } from "./app/market/orders/orders.server";
import { PAGE_CACHE_HEADER } from "./app/utils/cache";
import { parseEnv } from "./app/utils/env.server";
import { bodyFor, createPageCache, isCacheableRequest } from "./app/utils/page-cache.server";

let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const log = (fields: Record<string, unknown>) => console.log(JSON.stringify({ time: new Date().toISOString(), ...fields }));
const started = Date.now();
const db = await bootDatabase(env, (line) => log({ level: "info", msg: line }));
const payments = createGateways(db, env);
const geo = env.GEO_API_URL ? createHttpCountryResolver({ urlTemplate: env.GEO_API_URL, timeoutMs: env.GEO_API_TIMEOUT_MS }) : null;

const BUILD_PATH = path.resolve("build/index.js");
const loadBuild = async (): Promise<ServerBuild> => import(`${url.pathToFileURL(BUILD_PATH).href}?t=${Date.now()}`);
let build = await loadBuild();
// Live rebuilds only under `remix dev`, which sets REMIX_DEV_ORIGIN; a plain start serves the build as it is.
const dev = env.NODE_ENV === "development" && Boolean(process.env.REMIX_DEV_ORIGIN);

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", "loopback");

app.use((req, res, next) => {
  const requestId = (req.get("x-request-id") ?? randomUUID()).slice(0, 64);
  res.locals.requestId = requestId;
  res.locals.cspNonce = randomBytes(16).toString("base64");
  res.setHeader("X-Request-Id", requestId);
  const t0 = process.hrtime.bigint();
  res.on("finish", () => {
    if (!env.LOG_REQUESTS) return;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    log({ level: "info", method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10, requestId });
  });
  next();
});

app.use(compression());
app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        "default-src": ["'self'"],
        "script-src": [
          "'self'",
          (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
          ...(dev ? ["'unsafe-inline'"] : []),
          // Live payments: PortOne's browser SDK, which opens the payment companies' windows.
          ...(env.PAYMENT_GATEWAY === "live" ? ["https://cdn.portone.io"] : []),
        ],
        "frame-src": ["'self'", ...(env.PAYMENT_GATEWAY === "live" ? ["https:"] : [])],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "media-src": ["'self'", "blob:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'", ...(dev ? ["ws:"] : []), ...(env.PAYMENT_GATEWAY === "live" ? ["https://*.portone.io"] : [])],
        "frame-ancestors": ["'self'"],
        "upgrade-insecure-requests": null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // "no-referrer" (helmet's default) makes Chromium send `Origin: null` on form posts, which Remix's CSRF
    // check refuses: every form without JavaScript would fail.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: Boolean(env.PUBLIC_URL?.startsWith("https://")),
  }),
);

app.get("/healthz", async (_req, res) => {
  try {
    await sql`select 1`.execute(db);
    res.type("text").send("ok");
  } catch (error) {
    log({ level: "error", msg: "health check failed", error: String(error) });
    res.status(503).type("text").send("database unreachable");
  }
});

// Fingerprinted build files never change; everything else in public/ may.
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use("/media", express.static(path.join(env.DATA_DIR, "media"), { maxAge: "1d" }));
app.use(express.static("public", { maxAge: "1h" }));

const getLoadContext = async (req: express.Request, res: express.Response): Promise<AppLoadContext> => {
  const request = new Request(`http://${req.get("host") ?? "localhost"}${req.originalUrl}`, {
    headers: Object.entries(req.headers).flatMap(([k, v]) =>
      v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x] as [string, string]),
    ),
  });
  return {
    db,
    env,
    locale: await resolveLanguage(request, req.ip ?? "", { trustCdnCountry: env.TRUST_CDN_COUNTRY, geo }),
    cspNonce: res.locals.cspNonce as string,
    requestId: res.locals.requestId as string,
    clientIp: req.ip ?? "",
    payments,
  };
};

/**
 * Writes a Remix response with backpressure. (@remix-run/express's sendRemixResponse writes every chunk without
 * waiting for the socket, so a 50 MB download to a slow client sat whole in memory.)
 */
async function sendResponse(res: express.Response, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) return void res.end();
  await pipeline(Readable.fromWeb(response.body as unknown as NodeReadableStream), res).catch((error: NodeJS.ErrnoException) => {
    // The client went away mid-download: nothing to answer.
    if (error.code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
  });
}

const pageCache = createPageCache();
let handleRequest = createRequestHandler(build, env.NODE_ENV);

app.all("*", async (req, res, next) => {
  try {
    if (dev) {
      build = await loadBuild();
      handleRequest = createRequestHandler(build, env.NODE_ENV);
    }
    const context = await getLoadContext(req, res);
    if (dev || !isCacheableRequest(req.method, req.get("cookie"), req.path)) {
      const response = await handleRequest(createRemixRequest(req, res), context);
      response.headers.delete(PAGE_CACHE_HEADER);
      return await sendResponse(res, response);
    }
    // Anonymous GET: served from the page micro-cache when the route opted in. The render is not tied to
    // this visitor's connection, since other visitors may be waiting for it.
    const key = `${context.locale} ${req.originalUrl}`;
    const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
    const { page, hit } = await pageCache.get(key, context.cspNonce, () =>
      handleRequest(new Request(url, { method: "GET", headers: createRemixRequest(req, res).headers }), context),
    );
    res.status(page.status);
    for (const [name, value] of page.headers) if (name !== "content-length") res.append(name, value);
    res.setHeader("X-Cache", hit ? "HIT" : "MISS");
    res.end(bodyFor(page, context.cspNonce));
  } catch (error) {
    next(error);
  }
});

app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
  log({ level: "error", path: req.path, requestId: res.locals.requestId, error: error instanceof Error ? error.stack : String(error) });
  if (!res.headersSent) res.status(500).type("text").send("Please try again in a few minutes");
});

const server = app.listen(env.PORT, env.HOST, () => {
  log({
    level: "info",
    msg: `store listening on http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${env.PORT}`,
    startupMs: Date.now() - started,
    database: env.DATABASE_URL.startsWith("file:") ? "sqlite" : "postgres",
    paymentGateway: env.PAYMENT_GATEWAY,
  });
  if (dev) broadcastDevReady(build);
});

// Payment housekeeping on a timer. Both jobs are safe on several servers at once (each order is claimed by a
// conditional update) and after a crash (they only read the gateways' truth and settle from it).
const jobs: NodeJS.Timeout[] = [];
// The sandbox gateway delivers its queued webhooks (late, repeated, or left over from before a restart).
const stopSandbox = payments.sandbox?.startWorker(1000);
if (env.VBANK_EXPIRY_INTERVAL_S > 0) {
  const every = env.VBANK_EXPIRY_INTERVAL_S * 1000;
  const run = (name: string, job: () => Promise<Record<string, number>>) =>
    job()
      .then((result) => {
        if (Object.values(result).some((n) => n > 0)) log({ level: "info", msg: name, ...result });
      })
      .catch((error) => log({ level: "error", msg: `${name} failed`, error: String(error) }));
  jobs.push(setInterval(() => run("virtual accounts expired", () => expireVirtualAccounts(db, payments)), every));
  jobs.push(setInterval(() => run("open orders reconciled", () => reconcileOpenOrders(db, payments)), every * 5));
  void run("open orders reconciled", () => reconcileOpenOrders(db, payments));
  for (const j of jobs) j.unref();
}

const shutdown = (signal: string) => {
  for (const j of jobs) clearInterval(j);
  stopSandbox?.();
  log({ level: "info", msg: `${signal}: shutting down` });
  server.close(() => {
    db.destroy().finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
