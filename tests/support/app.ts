import path from "node:path";
import url from "node:url";
import { type AppLoadContext, createRequestHandler, type ServerBuild } from "@remix-run/node";
import "../../app/context";
import type { DB } from "../../app/db/db.server";
import { resolveLanguage } from "../../app/i18n/language.server";
import type { CountryResolver } from "../../app/integrations/geo/country.server";
import { createGateways, type GatewayFactories, type Gateways } from "../../app/integrations/payments/index.server";
import { createStorage } from "../../app/integrations/storage/index.server";
import type { Storage } from "../../app/integrations/storage/storage";
import { parseEnv } from "../../app/utils/env.server";
import { Conformance } from "./openapi";

/**
 * The built Remix app (build/index.js, made by `remix build`) wired to a test database, called
 * in-process with real Requests: loaders, actions, redirects and headers as a browser would see them.
 */
export async function createTestApp(
  db: DB,
  options: {
    dataDir: string;
    env?: Record<string, string>;
    geo?: CountryResolver | null;
    factories?: GatewayFactories;
    /** The storage the app reads and writes (default: from the env, the local disk under dataDir). */
    storage?: Storage;
  },
) {
  const buildPath = path.resolve("build/index.js");
  const build = (await import(url.pathToFileURL(buildPath).href)) as ServerBuild;
  // The store under test is published at http://store.test, the address its requests are made to.
  const env = parseEnv({
    NODE_ENV: "production",
    DATA_DIR: options.dataDir,
    SESSION_SECRET: "test-secret-test-secret",
    PUBLIC_URL: "http://store.test",
    ...options.env,
  });
  const storage = options.storage ?? createStorage(env);
  const handler = createRequestHandler(build, "production");
  // Gateways call the store back in-process: a webhook is one more request to this app.
  const payments: Gateways = createGateways(db, env, {
    factories: options.factories,
    deliver: async (to, body, headers) => {
      const target = new URL(to, "http://store.test");
      return (await call(target.pathname + target.search, { method: "POST", body, headers })).ok;
    },
  });
  const respond = async (pathname: string, init: RequestInit & { ip?: string } = {}) => {
    const request = new Request(`http://store.test${pathname}`, { redirect: "manual", ...init });
    const context: AppLoadContext = {
      db,
      env,
      locale: await resolveLanguage(request, init.ip ?? "203.0.113.9", {
        trustCdnCountry: env.TRUST_CDN_COUNTRY,
        geo: options.geo ?? null,
      }),
      cspNonce: "test-nonce",
      requestId: "test",
      clientIp: init.ip ?? "203.0.113.9",
      payments,
      storage,
    };
    return handler(request, context);
  };
  // Every API answer is checked against the store's OpenAPI document (tests/support/openapi.ts).
  let reference: Promise<Conformance> | null = null;
  const conformance = () => {
    reference ??= respond("/api/v1/openapi.json").then(async (r) => new Conformance(await r.json()));
    return reference;
  };
  const call = async (pathname: string, init: RequestInit & { ip?: string } = {}) => {
    const response = await respond(pathname, init);
    const url = new URL(pathname, "http://store.test");
    const type = response.headers.get("content-type") ?? "";
    if (url.pathname.startsWith("/api/v1/") && type.includes("json")) {
      const method = (init.method ?? "GET").toUpperCase();
      const problems = (await conformance()).check(
        method,
        url.pathname.slice("/api/v1".length),
        response.status,
        type,
        await response.clone().json(),
      );
      if (problems.length) throw new Error(`The answer disagrees with /api/v1/openapi.json:\n${problems.join("\n")}`);
    }
    return withoutStringTable(response);
  };
  return Object.assign(call, { payments, storage, conformance });
}

/**
 * Pages carry every string of their language as JSON for the browser (root's I18nScript). Tests read the rendered
 * markup, so an assertion that a message is absent must not meet it in that table: `text()` leaves the table out,
 * and `stringTable()` answers it.
 */
const TABLE = /<script id="i18n-strings" type="application\/json">([\s\S]*?)<\/script>/;
function withoutStringTable(response: Response): Response & { stringTable(): Promise<Record<string, unknown> | null> } {
  const isHtml = response.headers.get("content-type")?.startsWith("text/html");
  const body = isHtml ? response.clone().text() : null;
  return Object.assign(response, {
    text: async () => (body ? (await body).replace(TABLE, "") : Response.prototype.text.call(response)),
    stringTable: async () => {
      const match = body ? (await body).match(TABLE) : null;
      return match ? (JSON.parse(match[1]) as Record<string, unknown>) : null;
    },
  });
}
