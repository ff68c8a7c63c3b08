import { type AppLoadContext, createCookie } from "@remix-run/node";
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
