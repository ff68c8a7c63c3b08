import { type AppLoadContext, redirect } from "@remix-run/node";
import { shopCookies } from "./cookies.server";
import { signedInAddress } from "./market-query";
import { clearPay } from "./pay-session.server";
import { readShopper } from "./shopper.server";

/** Set-Cookie headers that sign a session in: gt carries the session id, gsi says "signed in" to the pages. */
export async function signedInCookies(context: AppLoadContext, sessionId: string, userType: number): Promise<string[]> {
  const c = shopCookies(context.env);
  // Sign-in clears stored order data (spec section 4).
  return [
    await c.gt.serialize(sessionId),
    await c.gsi.serialize(String(userType)),
    await c.ngt.serialize("", { maxAge: 0 }),
    await clearPay(context),
  ];
}

/**
 * The redirect that finishes a sign-in or a join: the session's cookies go with it, and the address carries the
 * user type and the page's permalink query (restored by the root loader, see market-query.ts).
 */
export async function redirectSignedIn(context: AppLoadContext, session: { sessionId: string; user: { userType: number } }, to: string) {
  const headers = new Headers();
  for (const c of await signedInCookies(context, session.sessionId, session.user.userType)) headers.append("Set-Cookie", c);
  return redirect(signedInAddress(to, session.user.userType), { headers });
}

/** Set-Cookie headers that sign out: both gt and gsi go. */
export async function signedOutCookies(context: AppLoadContext): Promise<string[]> {
  const c = shopCookies(context.env);
  return [await c.gt.serialize("", { maxAge: 0 }), await c.gsi.serialize("", { maxAge: 0 }), await clearPay(context)];
}

/** The signed-in viewer, or a redirect to / with redirect=requires-auth (spec section 4). */
export async function requireViewer(request: Request, context: AppLoadContext) {
  const { viewer } = await readShopper(request, context);
  if (!viewer) {
    const url = new URL(request.url);
    throw redirect(`/?redirect=requires-auth&redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return viewer;
}
