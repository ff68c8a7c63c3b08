// The store's HTTP server: Express with compression, security headers, caching of fingerprinted build
// files, the media folder, a health check, one log line per request, and the Remix handler.
import cluster from "node:cluster";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import url from "node:url";
import v8 from "node:v8";
import zlib from "node:zlib";
import {
  type AppLoadContext,
  broadcastDevReady,
  createReadableStreamFromReadable,
  createRequestHandler,
  type ServerBuild,
} from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import "./app/context";
import { bootDatabase } from "./app/db/boot.server";
import { resolveLanguage } from "./app/i18n/language.server";
import { I18N_SCRIPT_ID } from "./app/i18n/react";
import { createHttpCountryResolver } from "./app/integrations/geo/country.server";
import { createMailTransport } from "./app/integrations/mail/transport.server";
import { createGateways } from "./app/integrations/payments/index.server";
import { createStorage } from "./app/integrations/storage/index.server";
import { serveMedia } from "./app/integrations/storage/serve.server";
import { scheduleMediaJobs } from "./app/market/catalog/media-jobs.server";
import { contentVersion } from "./app/market/content-version.server";
import { scheduleHousekeeping } from "./app/market/housekeeping.server";
import { processHolder } from "./app/market/jobs.server";
import { scheduleMailWorker } from "./app/market/mail/worker.server";
import { startScheduledJobs } from "./app/market/scheduled-jobs.server";
import { modesFingerprint, serviceModes } from "./app/market/service-modes.server";
import { cannotStart } from "./app/utils/boot-failure.server";
import { PAGE_CACHE_HEADER } from "./app/utils/cache";
import { runPrimary } from "./app/utils/cluster.server";
import { sessionSecret } from "./app/utils/cookies.server";
import { parseEnv } from "./app/utils/env.server";
import { createGate, GateFull } from "./app/utils/gate.server";
import { checkHealth } from "./app/utils/health.server";
import {
  ALLOWED_METHODS,
  bodyTypeRefusal,
  credentialRefusal,
  credentialRefusalMessage,
  crossOriginRefusal,
  hostRefusal,
  requestAddress,
} from "./app/utils/http-guards.server";
import { cacheAudience, createPageCache, jsonScriptRegion, pageBody } from "./app/utils/page-cache.server";
import { installRouteMatchMemo } from "./app/utils/route-matching.server";
import { sharedShopperPage } from "./app/utils/shared-pages.server";

// WebAssembly runs on V8's baseline compiler (Liftoff) only. The store's WebAssembly is harfbuzz, which cuts the
// font previews' subsets (and undici's HTTP parser for outgoing fetches): optimizing harfbuzz with TurboFan left
// some 25 MB of compiler and code memory in the process for good, and made no subset faster (10 to 40 ms either
// way, and cached). Set before any module is compiled (subset-font is loaded at the first preview).
v8.setFlagsFromString("--liftoff-only");
// After each full collection the old generation may grow to 1.5 times what survived, not the 2 to 4 times V8
// picks for itself: under bench/soak.ts that slack was some 80 MB of committed, mostly empty heap. It costs more
// frequent full collections (docs/performance.md has the figures).
v8.setFlagsFromString("--heap-growing-percent=50");

// A start-up that fails prints one line, "cannot start: <reason>", and exits with status 1 (boot-failure.server.ts).
let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (error) {
  cannotStart(error);
}

const log = (fields: Record<string, unknown>) =>
  console.log(JSON.stringify({ time: new Date().toISOString(), pid: process.pid, ...fields }));
// `npm run serve` and `npm start` give node a 4 MiB young generation and glibc's malloc two arenas and no dynamic
// mmap threshold (package.json; docs/performance.md): settings that must be on the command line or in the
// environment before the process starts. Without them the same load holds some 100 MB more.
if (
  env.NODE_ENV === "production" &&
  (!`${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`.includes("--max-semi-space-size") || !process.env.MALLOC_ARENA_MAX)
)
  log({ level: "warn", msg: "started without the memory settings of npm run serve (see docs/performance.md)" });
// WEB_CONCURRENCY > 1 (default: one per core): this process is the cluster's primary (app/utils/cluster.server.ts).
// It boots the database once, forks the workers that run this file and serve, and never goes past this line.
if (cluster.isPrimary && env.WEB_CONCURRENCY > 1 && !process.env.REMIX_DEV_ORIGIN) await runPrimary(env, log).catch(cannotStart);
const started = Date.now();
const db = await bootDatabase(env, (line) => log({ level: "info", msg: line }), { seedProcess: "child", openOnly: cluster.isWorker }).catch(
  cannotStart,
);
const { payments, storage } = (() => {
  try {
    // Files (media, previews, uploads, downloads): the local disk under DATA_DIR, or STORAGE_URL's object store.
    return { payments: createGateways(db, env), storage: createStorage(env) };
  } catch (error) {
    cannotStart(error);
  }
})();
const geo = env.GEO_API_URL ? createHttpCountryResolver({ urlTemplate: env.GEO_API_URL, timeoutMs: env.GEO_API_TIMEOUT_MS }) : null;

// The Remix build is loaded as Node loads any ES module, not through tsx (app/utils/native-build-loader.mjs).
register(new URL("./app/utils/native-build-loader.mjs", import.meta.url));
const BUILD_PATH = path.resolve("build/index.js");
const loadBuild = async (): Promise<ServerBuild> => import(`${url.pathToFileURL(BUILD_PATH).href}?t=${Date.now()}`);
let build = await loadBuild().catch((error: unknown) =>
  cannotStart(new Error(`the Remix build ${BUILD_PATH} cannot be loaded (run npm run build): ${(error as Error)?.message ?? error}`)),
);
// Live rebuilds only under `remix dev`, which sets REMIX_DEV_ORIGIN; a plain start serves the build as it is.
const dev = env.NODE_ENV === "development" && Boolean(process.env.REMIX_DEV_ORIGIN);

const app = express();
app.disable("x-powered-by");
// X-Forwarded-For is believed only from the proxies TRUST_PROXY lists; otherwise the client is the connection.
app.set("trust proxy", env.TRUST_PROXY ?? false);

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

const publicHost = new URL(env.PUBLIC_URL).host;
/** A refusal before any route: the API's envelope for API paths, plain text elsewhere. */
function refuse(req: express.Request, res: express.Response, status: number, message: string) {
  if (req.path.startsWith("/api/")) return void res.status(status).json({ result: { code: status, message }, data: { state: "ERROR" } });
  res.status(status).type("text").send(message);
}
// Refusals before any route runs: a malformed Host, methods the store does not serve, cross-origin writes, pages
// posted something that is not a form. Each is a client error with a plain message.
app.use((req, res, next) => {
  const badHost = hostRefusal(req.rawHeaders);
  if (badHost) return refuse(req, res, badHost.status, badHost.message);
  if (!(ALLOWED_METHODS as readonly string[]).includes(req.method)) {
    res.setHeader("Allow", ALLOWED_METHODS.join(", "));
    return refuse(req, res, 405, "Method not allowed");
  }
  // The app runs Remix's single fetch: the legacy ?_data protocol is nobody's, and Remix answers it with a 500.
  if (typeof req.query._data !== "undefined") return refuse(req, res, 400, "Bad request address");
  const header = (name: string) => req.get(name);
  const tooLong = credentialRefusal(header);
  if (tooLong) return refuse(req, res, tooLong.status, credentialRefusalMessage(tooLong, header));
  const refusal =
    crossOriginRefusal(req.method, req.path, header, publicHost) ?? bodyTypeRefusal(req.method, req.path, req.get("content-type"));
  if (refusal) return refuse(req, res, refusal.status, refusal.message);
  next();
});

// A form body is read whole (urlencoded at most 1 MiB, multipart at most 24 MiB: the inquiry form reads past a
// too-large attachment up to 20 MB to keep the typed fields) and a multipart one checked before any action sees
// it: a truncated or forged multipart body answers 400 here instead of failing inside an action.
const MAX_URLENCODED_BYTES = 1024 * 1024;
const MAX_MULTIPART_BYTES = 24 * 1024 * 1024;
app.use(async (req, res, next) => {
  const type = req.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (req.method === "GET" || req.method === "HEAD" || (type !== "multipart/form-data" && type !== "application/x-www-form-urlencoded"))
    return next();
  const MAX_FORM_BYTES = type === "multipart/form-data" ? MAX_MULTIPART_BYTES : MAX_URLENCODED_BYTES;
  try {
    const declared = Number(req.get("content-length") ?? 0);
    if (declared > MAX_FORM_BYTES) return refuse(req, res, 413, "The request is too large");
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_FORM_BYTES) return refuse(req, res, 413, "The request is too large");
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    if (type === "multipart/form-data") {
      const readable = await new Response(body, { headers: { "content-type": req.get("content-type") ?? "" } }).formData().then(
        () => true,
        () => false,
      );
      if (!readable) return refuse(req, res, 400, "The form could not be read");
    }
    res.locals.formBody = body;
    next();
  } catch (error) {
    // The client went away before its body ended (Node's "aborted"): its own doing, a client error, not ours.
    if (req.destroyed && (error as NodeJS.ErrnoException).code === "ECONNRESET")
      return next(Object.assign(new Error("The client left before its request body ended"), { status: 400 }));
    next(error);
  }
});

// Brotli at compression's quality 4 with a 256 KiB window instead of zlib's 4 MiB default: pages are under
// 256 KiB, so the output is the same, while the default window made each stream allocate and clear megabytes of
// tables (about 5 times the CPU per page, and that much more memory per concurrent response).
app.use(compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } } }));
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

// The database (busy when another process holds SQLite's write lock), the disk under DATA_DIR (a full or
// read-only disk is not "ok") and STORAGE_URL's object store: 200 with the details when all are fine, 503 otherwise.
app.get("/healthz", async (_req, res) => {
  const health = await checkHealth(db, env.DATA_DIR, { storage });
  if (!health.ok) log({ level: "warn", msg: "health check failed", ...health });
  res.status(health.ok ? 200 : 503).json(health);
});

// Fingerprinted build files never change; everything else in public/ may.
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
// Public previews, from the storage (local disk or object store alike), cached for a day.
app.use("/media", (req, res, next) => {
  const headers = new Headers();
  for (const name of ["range", "if-none-match"]) if (req.get(name)) headers.set(name, req.get(name) as string);
  serveMedia(storage, req.path, { method: req.method, headers })
    .then((response) => {
      if (!response) return next();
      // An SVG's own policy (MEDIA_SVG_CSP) replaces the pages' one that helmet set.
      if (response.headers.has("content-security-policy")) res.removeHeader("Content-Security-Policy");
      return sendResponse(res, response);
    })
    .catch(next);
});
// The rest of public/ (favicons, robots.txt, the notice pictures): only paths under its top-level entries look at the
// disk, so a page's request is not first a failed stat of public/<its path> (3.5% of a fresh page's CPU).
const publicStatic = express.static("public", { maxAge: "1h" });
const publicEntries = new Set(fs.readdirSync("public").filter((name) => name !== "build"));
app.use((req, res, next) => (publicEntries.has(req.path.split("/")[1] ?? "") ? publicStatic(req, res, next) : next()));

/**
 * The request Remix sees: addressed to PUBLIC_URL (never to the client's Host header, so no page, cached copy,
 * mail or gateway callback can carry another site's address), aborted when the client goes away.
 */
function remixRequest(req: express.Request, res: express.Response, address: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // The origin check above has passed: Remix's own check (Origin against X-Forwarded-Host or Host) must agree.
  headers.delete("x-forwarded-host");
  // A read with an unreadable Origin (writes with one were refused above) goes on without it: a hostile header is
  // ignored, never a 500.
  const origin = headers.get("origin");
  const originHost = origin && origin !== "null" ? URL.parse(origin)?.host : undefined;
  if (originHost) headers.set("host", originHost);
  else if (origin && origin !== "null") headers.delete("origin");
  let controller: AbortController | null = new AbortController();
  const signal = controller.signal;
  res.on("finish", () => {
    controller = null;
  });
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal };
  if (res.locals.formBody) init.body = new Uint8Array(res.locals.formBody as Buffer);
  else if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(address.href, init);
}

const getLoadContext = async (req: express.Request, res: express.Response, request: Request): Promise<AppLoadContext> => ({
  db,
  env,
  locale: await resolveLanguage(request, req.ip ?? "", { trustCdnCountry: env.TRUST_CDN_COUNTRY, geo }),
  cspNonce: res.locals.cspNonce as string,
  requestId: res.locals.requestId as string,
  clientIp: req.ip ?? "",
  payments,
  storage,
});

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

// React Router's matchRoutes re-flattens the route tree on every call, some five times a render: memoized per
// tree shape and path (app/utils/route-matching.server.ts).
installRouteMatchMemo();
// The page's translations (the same on every page of a language, three quarters of a stored page) are kept once.
const pageCache = createPageCache({ maxBytes: env.PAGE_CACHE_MB * 1024 * 1024, sharedRegions: jsonScriptRegion(I18N_SCRIPT_ID) });
let remixHandler = createRequestHandler(build, env.NODE_ENV);
// Renders go through an admission gate: RENDER_CONCURRENCY at once until the response's head is ready (loaders and
// the shell, where a render's memory is), the others wait in arrival order (app/utils/gate.server.ts).
const renderGate = createGate(env.RENDER_CONCURRENCY, env.RENDER_QUEUE_MAX);
const handleRequest = (request: Request, context: AppLoadContext) => renderGate.run(() => remixHandler(request, context));
// The service modes (switched from the console by any process) and the published content's version (bumped by
// every change of the catalog or of what the console publishes, in any worker or server) change what pages show:
// when this process first sees either move, within their one-second caches, it drops its cached pages rather than
// serve the old ones.
let modesSeen: string | null = null;

app.all("*", async (req, res, next) => {
  try {
    if (dev) {
      build = await loadBuild();
      remixHandler = createRequestHandler(build, env.NODE_ENV);
    }
    const address = requestAddress(env.PUBLIC_URL, req.originalUrl);
    if (!address) return refuse(req, res, 400, "Bad request address");
    const request = remixRequest(req, res, address);
    const context = await getLoadContext(req, res, request);
    const audience = dev ? null : cacheAudience(req.method, req.path, (name) => req.get(name));
    // A shopper (a member, or a visitor with a cart) shares the page with those it is the same for, unless their
    // part of it cannot be shared (app/utils/shared-pages.server.ts).
    const shared = audience === "shopper" ? await sharedShopperPage(request, context) : null;
    if (!audience || (audience === "shopper" && !shared)) {
      const response = await handleRequest(request, context);
      response.headers.delete(PAGE_CACHE_HEADER);
      return await sendResponse(res, response);
    }
    // Served from the page micro-cache when the route opted in. The render is not tied to this visitor's
    // connection, since other visitors may be waiting for it. Nothing in it comes from the Host header (the address
    // is PUBLIC_URL's), so the key is the modes, the content version, the language, the path and, for a shopper,
    // their part of the page.
    const [serviceMode, published] = await Promise.all([serviceModes(db, env.HOME_MODE), contentVersion(db)]);
    const modes = `${modesFingerprint(serviceMode)} v${published}`;
    if (modes !== modesSeen) {
      if (modesSeen !== null) pageCache.clear();
      modesSeen = modes;
    }
    // They are part of the key too, so a render begun under the old ones is never served under the new ones.
    const key = `${modes} ${context.locale} ${req.originalUrl}${shared ? ` ${shared.key}` : ""}`;
    const renderContext = shared?.renderContext ?? context;
    const { page, hit, stale } = await pageCache.get(key, { nonce: context.cspNonce, ...shared?.renderValues }, async () => {
      const response = await handleRequest(new Request(address, { method: "GET", headers: request.headers }), renderContext);
      // A loader read more of the shopper than the key holds: the page is theirs alone.
      if (shared?.touched()) response.headers.delete(PAGE_CACHE_HEADER);
      return response;
    });
    res.status(page.status);
    for (const [name, value] of page.headers) if (name !== "content-length") res.append(name, value);
    res.setHeader("X-Cache", stale ? "STALE" : hit ? "HIT" : "MISS");
    // A stored page goes out compressed as it is kept, with this response's values spliced in (nothing compressed
    // per response); a page just rendered goes out as text through the compression above.
    const { parts, encoding } = pageBody(page, { nonce: context.cspNonce, ...shared?.values }, req.acceptsEncodings("gzip") === "gzip");
    if (encoding) {
      res.setHeader("Content-Encoding", encoding);
      res.vary("Accept-Encoding");
    }
    res.setHeader("Content-Length", String(parts.reduce((n, part) => n + part.length, 0)));
    res.cork();
    for (const part of parts) res.write(part);
    res.end();
    process.nextTick(() => res.uncork());
  } catch (error) {
    if (error instanceof GateFull) {
      res.setHeader("Retry-After", "1");
      return refuse(req, res, 503, "Busy, try again in a moment");
    }
    next(error);
  }
});

app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
  // Errors a client caused (a body Express could not read, a path it could not decode) are its own: 4xx, logged
  // as such, with no stack.
  const status = (error as { status?: unknown; statusCode?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    log({
      level: "warn",
      msg: "client error",
      status,
      method: req.method,
      path: req.path,
      requestId: res.locals.requestId,
      error: String((error as Error).message ?? error),
    });
    if (!res.headersSent) refuse(req, res, status, "Bad request");
    return;
  }
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
// A port in use or not allowed: one line, not an unhandled 'error' event's stack.
server.on("error", (error) => {
  if (!server.listening) cannotStart(error);
  log({ level: "error", msg: "server error", error: String(error) });
});

// The sandbox's webhook deliveries, the virtual-account expiry, the reconciliation of open orders and the pruning of
// rate-limit counters, each run by one process at a time across workers and servers (leases in the database).
const stopJobs = startScheduledJobs(db, { payments, vbankExpiryIntervalS: env.VBANK_EXPIRY_INTERVAL_S, log });
// Expired download tokens, expired sessions and cart lines past 30 days (and attachments a crash left half-written)
// are purged hourly, and once 5 s after start, by whichever process takes the job's lease first; the others skip.
const stopHousekeeping = scheduleHousekeeping(db, { everyMs: 60 * 60_000, storage, log });
// Queued mail goes out after the change that queued it commits: to the outbox folder or over SMTP, one worker at a
// time across processes (a lease), retried with back-off.
const mailTransport = createMailTransport(env);
const stopMail =
  env.MAIL_POLL_MS > 0
    ? scheduleMailWorker(db, {
        transport: mailTransport,
        publicUrl: env.PUBLIC_URL,
        from: env.MAIL_FROM,
        secret: sessionSecret(env),
        intervalMs: env.MAIL_POLL_MS,
        holder: processHolder(),
        log,
      })
    : () => {};
// The previews of items the console created from uploads (clips, posters, waveforms, font checks), made after
// the response by one process at a time across servers (a lease); the console's item page shows their progress.
const stopMediaJobs = scheduleMediaJobs(db, { storage, intervalMs: 2000, holder: processHolder(), log });
const shutdown = (signal: string) => {
  stopJobs();
  stopHousekeeping();
  stopMail();
  stopMediaJobs();
  mailTransport.close?.();
  log({ level: "info", msg: `${signal}: shutting down` });
  server.close(() => {
    db.destroy().finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
