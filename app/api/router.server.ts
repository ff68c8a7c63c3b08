import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { isLocale, type Locale } from "../i18n/config";
import { MarketError } from "../market/errors";
import { RateLimited } from "../market/rate-limits.server";
import { closedTarget, serviceModes } from "../market/service-modes.server";
import { retryAfterHeaders, tooManyText } from "../utils/rate-limit.server";
import { reportUnavailable, UNAVAILABLE_RETRY_AFTER_S, unavailableCode } from "../utils/unavailable.server";
import { fail } from "./envelope.server";
import { apiErrors, apiMessage } from "./messages.server";
import { routes } from "./routes.server";

export interface ApiCall {
  request: Request;
  context: AppLoadContext;
  params: Record<string, string>;
  query: URLSearchParams;
  language: Locale;
}

export type ApiHandler = (call: ApiCall) => Promise<Response>;

export interface ApiRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string; // e.g. "contents/:id"
  handler: ApiHandler;
}

function compile(path: string): RegExp {
  const pattern = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? `(?<${seg.slice(1)}>[^/]+)` : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${pattern}$`);
}

const table = routes.map((r) => ({ ...r, regex: compile(r.path) }));

/** A validation refusal: the field, and the schema's own message when it names an `apiError` entry, else a generic one. */
function invalidMessage(language: Locale, issue: z.ZodIssue): string {
  const field = issue.path.join(".") || "request";
  const own = issue.message.startsWith("apiError.") ? issue.message.slice("apiError.".length) : null;
  if (own && own in apiErrors(language)) return `${field}: ${apiMessage(language, own)}`;
  return apiMessage(language, "INVALID_REQUEST", { field });
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
  // Under inspection or error service the API is closed too (its health check excepted): 503 with result.code 503
  // and the reason in data.error.
  const closed = path === "health" ? null : closedTarget(await serviceModes(context.db, context.env.HOME_MODE));
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
  try {
    return await route.handler({ request, context, params: { ...params }, query: url.searchParams, language });
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
