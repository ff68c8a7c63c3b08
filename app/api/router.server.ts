import type { AppLoadContext } from "@remix-run/node";
import { isLocale } from "../i18n/config";
import { MarketError } from "../market/errors";
import { RateLimited } from "../market/rate-limits.server";
import { closedTarget, serviceModes } from "../market/service-modes.server";
import { retryAfterHeaders, tooManyText } from "../utils/rate-limit.server";
import { reportUnavailable, UNAVAILABLE_RETRY_AFTER_S, unavailableCode } from "../utils/unavailable.server";
import { readJson } from "./caller.server";
import { type ApiCall, type ApiRoute, Reply } from "./define";
import { fail } from "./envelope.server";
import { invalidMessage } from "./invalid.server";
import { apiMessage } from "./messages.server";
import { routes } from "./routes.server";
import { droppedKeys, snakeKeys } from "./snake-case";
import { z } from "./zod";

export type { ApiCall, ApiRoute } from "./define";

function compile(path: string): RegExp {
  const pattern = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? `(?<${seg.slice(1)}>[^/]+)` : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${pattern}$`);
}

const table = routes.map((r) => ({ ...r, regex: compile(r.path) }));

/** An answer its route's schema does not describe: a bug of ours (a 500), never the caller's 400. */
class AnswerOutOfShape extends Error {}

/**
 * The one place answers take the wire's shape (docs/api.md): the handler's data in snake_case (snakeKeys), then
 * parsed by the route's answer schema, the same one the OpenAPI document is generated from. A field the schema does
 * not name is left out and logged (the reference and the code disagree: the integration suite fails on it).
 */
function shape(call: ApiCall, route: ApiRoute, status: number, data: unknown) {
  const schema = status === 200 ? route.answer : route.otherAnswers?.[status]?.data;
  if (!schema || !(schema instanceof z.ZodType)) throw new AnswerOutOfShape(`${route.method} ${route.path}: no schema for ${status}`);
  const wire = snakeKeys(data);
  const parsed = schema.safeParse(wire);
  if (!parsed.success)
    throw new AnswerOutOfShape(`${route.method} ${route.path} answered out of its schema: ${JSON.stringify(parsed.error.issues)}`);
  const dropped = droppedKeys(wire, parsed.data);
  if (dropped.length)
    console.error(
      JSON.stringify({
        level: "error",
        requestId: call.context.requestId,
        path: route.path,
        message: "answer fields not in the reference",
        dropped,
      }),
    );
  return parsed.data;
}

/**
 * Dispatches `/api/v1/<path>` to its handler; unknown paths and methods answer 404/405 envelopes. Every 503 carries
 * Retry-After (the caller's cue to come back, not to give up): a closed service 600 s, the rest
 * UNAVAILABLE_RETRY_AFTER_S unless the handler named its own.
 */
export async function handleApi(request: Request, context: AppLoadContext, path: string): Promise<Response> {
  const res = await dispatch(request, context, path);
  if (res.status !== 503 || res.headers.has("Retry-After")) return res;
  const headers = new Headers(res.headers);
  headers.set("Retry-After", String(UNAVAILABLE_RETRY_AFTER_S));
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

async function dispatch(request: Request, context: AppLoadContext, path: string): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const headerLanguage = request.headers.get("language");
  const language = isLocale(headerLanguage) ? headerLanguage : context.locale;
  // Under inspection or error service the API is closed too (its health check and reference excepted): 503 with
  // result.code 503 and the reason in data.error.
  const open = path === "health" || path === "openapi.json";
  const closed = open ? null : closedTarget(await serviceModes(context.db, context.env.HOME_MODE));
  if (closed) {
    const res = fail(
      503,
      closed === "/servicecheck" ? "The service is under inspection" : "Please try again in a few minutes",
      closed === "/servicecheck" ? "SERVICE_INSPECTION" : "SERVICE_ERROR",
    );
    res.headers.set("Retry-After", "600");
    return res;
  }
  const matches = table.filter((r) => r.regex.test(path));
  if (!matches.length) return fail(404, apiMessage(language, "ROUTE_NOT_FOUND", { path }), "ROUTE_NOT_FOUND");
  const route = matches.find((r) => r.method === method);
  if (!route) return fail(405, apiMessage(language, "METHOD_NOT_ALLOWED", { method, path }), "METHOD_NOT_ALLOWED");
  const params = route.regex.exec(path)?.groups ?? {};
  const call: ApiCall = { request, context, params: { ...params }, query: url.searchParams, language };
  try {
    // Input: the route's own schemas, read when the handler asks (after its sign-in check); old camelCase names of
    // a JSON body are taken in the wire's snake_case (accepted for one release, docs/decisions.md).
    const input = {
      query: () => route.query?.parse(Object.fromEntries(url.searchParams)),
      body: async () => route.body?.parse(snakeKeys(await readJson(call))),
    };
    const result = await route.handler(call, input);
    if (result instanceof Response) return result;
    const reply = result instanceof Reply ? result : new Reply(result ?? { state: "SUCCESS" });
    const status = reply.init.status ?? 200;
    const data = shape(call, route, status, reply.data);
    return Response.json(
      { result: { code: status, message: reply.init.message ?? "SUCCESS" }, data },
      { status, headers: reply.init.headers },
    );
  } catch (error) {
    if (error instanceof z.ZodError) {
      return fail(400, invalidMessage(language, error.issues[0]), "INVALID_REQUEST");
    }
    if (error instanceof RateLimited) {
      const res = fail(429, tooManyText(language, error.retryAfterMs, error.bucket), error.code);
      for (const [name, value] of Object.entries(retryAfterHeaders(error.retryAfterMs))) res.headers.set(name, value);
      return res;
    }
    if (error instanceof MarketError) return fail(error.status, apiMessage(language, error.code, undefined, error.message), error.code);
    // The database is busy (a held lock, a statement past its time), full or unreachable, or the file storage has
    // no room for an upload: one log line, and a 503 with Retry-After.
    if (unavailableCode(error)) {
      const res = fail(503, apiMessage(language, "SERVICE_UNAVAILABLE"), reportUnavailable(error, { requestId: context.requestId, path }));
      res.headers.set("Retry-After", String(UNAVAILABLE_RETRY_AFTER_S));
      return res;
    }
    console.error(
      JSON.stringify({ level: "error", requestId: context.requestId, path, error: error instanceof Error ? error.stack : String(error) }),
    );
    return fail(500, apiMessage(language, "SERVER_ERROR"), "SERVER_ERROR");
  }
}

/** Every route the router serves (the OpenAPI document lists exactly these). */
export const servedRoutes = (): readonly ApiRoute[] => routes;
