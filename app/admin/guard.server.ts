import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { MarketError } from "../market/errors";
import { findOperator, type Operator } from "../market/operators/accounts.server";
import { type Actor, recordAudit } from "../market/operators/audit.server";
import { type AdminArea, roleAllows } from "../market/operators/roles";
import { readOperatorToken } from "../utils/operator-session.server";

export { operatorCookie, readOperatorToken } from "../utils/operator-session.server";

/**
 * The signed-in operator, for every console loader and action. Without a live session: a redirect to
 * /admin/login?next=<this page>. With a role that does not reach `area`: 403 (the layout's boundary says so), and a
 * line of the audit log (`access.refused`: the area, the method and the page's path, without its query).
 */
export async function requireOperator(request: Request, context: AppLoadContext, area?: AdminArea): Promise<Operator> {
  const operator = await findOperator(context.db, await readOperatorToken(request, context));
  if (!operator) {
    const url = new URL(request.url);
    const next = request.method === "GET" ? url.pathname + url.search : "/admin";
    throw redirect(`/admin/login?next=${encodeURIComponent(next)}`);
  }
  if (area && !roleAllows(operator.role, area)) {
    await recordRefusal(request, context, operator, area);
    throw data({ area }, { status: 403 });
  }
  return operator;
}

/** A refused attempt as a line of the audit log (a refused post runs no loader after it: one line a request). */
async function recordRefusal(request: Request, context: AppLoadContext, operator: Operator, area: AdminArea) {
  const path = new URL(request.url).pathname.replace(/\.data$/, "");
  await recordAudit(context.db, actorOf(operator, context), {
    action: "access.refused",
    targetType: "area",
    targetId: area,
    after: { method: request.method, path: path.slice(0, 300), role: operator.role },
  });
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
