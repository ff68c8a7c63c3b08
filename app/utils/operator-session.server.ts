import { type AppLoadContext, createCookie } from "@remix-run/node";
import { outboxVisible } from "../market/mail/outbox.server";
import { findOperator, type Operator } from "../market/operators/accounts.server";
import type { Actor } from "../market/operators/audit.server";
import { sessionSecret } from "./cookies.server";

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
 * The operator signed in on this request's `op` cookie, or null: for pages outside the console that only an operator
 * may see (the test-mode outbox). The console's own pages use requireOperator (app/admin/guard.server.ts).
 */
export async function signedInOperator(request: Request, context: AppLoadContext): Promise<Operator | null> {
  return findOperator(context.db, await readOperatorToken(request, context));
}

/**
 * Who may read the test-mode outbox on this request, as the audit log names them: an operator whose role reaches
 * members' data, with the outbox transport; otherwise null (the pages answer 404). The client's address plays no part.
 */
export async function outboxReader(request: Request, context: AppLoadContext): Promise<Actor | null> {
  if (context.env.MAIL_TRANSPORT !== "outbox") return null;
  const operator = await signedInOperator(request, context);
  return operator && outboxVisible(context.env, operator) ? { id: operator.id, email: operator.email, ip: context.clientIp } : null;
}
