import { type AppLoadContext, createCookie, data, redirect } from "@remix-run/node";
import { MarketError } from "../market/errors";
import { findOperator, type Operator } from "../market/operators/accounts.server";
import type { Actor } from "../market/operators/audit.server";
import { type AdminArea, roleAllows } from "../market/operators/roles";
import { sessionSecret } from "../utils/cookies.server";

/**
 * The console's session cookie `op`: the operator session's token (stored hashed), HttpOnly, SameSite=Strict,
 * Secure behind https. Its path is `/`: Remix fetches the console home's data at `/admin.data`, which a cookie
 * of path `/admin` does not reach (a signed-in operator then looped back to the sign-in page). It lives as long as the session's absolute end; the idle end is the server's.
 */
export function operatorCookie(context: AppLoadContext) {
  return createCookie("op", {
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: Boolean(context.env.PUBLIC_URL?.startsWith("https://")),
    secrets: [sessionSecret(context.env)],
    maxAge: 12 * 3600,
  });
}

export async function readOperatorToken(request: Request, context: AppLoadContext): Promise<string | null> {
  const value = await operatorCookie(context).parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}

/**
 * The signed-in operator, for every console loader and action. Without a live session: a redirect to
 * /admin/login?next=<this page>. With a role that does not reach `area`: 403 (the layout's boundary says so).
 */
export async function requireOperator(request: Request, context: AppLoadContext, area?: AdminArea): Promise<Operator> {
  const operator = await findOperator(context.db, await readOperatorToken(request, context));
  if (!operator) {
    const url = new URL(request.url);
    const next = request.method === "GET" ? url.pathname + url.search : "/admin";
    throw redirect(`/admin/login?next=${encodeURIComponent(next)}`);
  }
  if (area && !roleAllows(operator.role, area)) throw data({ area }, { status: 403 });
  return operator;
}

/** The operator as the audit log names it, with the request's address. */
export function actorOf(operator: Operator, context: AppLoadContext): Actor {
  return { id: operator.id, email: operator.email, ip: context.clientIp };
}

/** Where to go after sign-in: a console address only (never another site). */
export function safeNext(raw: string | null): string {
  if (
    !raw ||
    !(raw === "/admin" || raw.startsWith("/admin/") || raw.startsWith("/admin?")) ||
    raw.startsWith("/admin/login") ||
    raw.includes("\\") ||
    raw.startsWith("//")
  )
    return "/admin";
  return raw;
}

/**
 * Runs a console action's domain call: a refusal of the domain (MarketError) becomes its status with its code, for
 * the page's boundary or the form, never a 500.
 */
export async function domainCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof MarketError) throw data({ code: error.code, message: error.message }, { status: error.status });
    throw error;
  }
}
