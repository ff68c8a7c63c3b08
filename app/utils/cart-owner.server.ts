import type { AppLoadContext } from "@remix-run/node";
import { type CartOwner, newCartToken } from "../market/cart.server";
import type { Viewer } from "../market/users/session.server";
import { shopCookies } from "./cookies.server";
import { readShopper } from "./shopper.server";

/**
 * The cart a request speaks for: the member's, or the visitor's anonymous cart (ngt). With `create`, a
 * visitor without a token gets one (kept 30 days) and the Set-Cookie header to send.
 */
export async function cartOwner(
  request: Request,
  context: AppLoadContext,
  options: { create?: boolean } = {},
): Promise<{ owner: CartOwner; viewer: Viewer | null; setCookie: string | null }> {
  const { viewer, ngt } = await readShopper(request, context);
  if (viewer) return { owner: { userId: viewer.id, ngt: null }, viewer, setCookie: null };
  if (!options.create) return { owner: { userId: null, ngt }, viewer: null, setCookie: null };
  // Each add renews the token's 30 days, so the cart lives as long as its newest line.
  if (ngt) return { owner: { userId: null, ngt }, viewer: null, setCookie: await shopCookies(context.env).ngt.serialize(ngt) };
  const token = newCartToken();
  return { owner: { userId: null, ngt: token }, viewer: null, setCookie: await shopCookies(context.env).ngt.serialize(token) };
}
