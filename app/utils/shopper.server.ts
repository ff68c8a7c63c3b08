import type { AppLoadContext } from "@remix-run/node";
import { countCart } from "../market/cart.server";
import { hasActiveLicense } from "../market/licenses.server";
import { countOpenRequests } from "../market/requests/requests.server";
import { findViewer, type Viewer } from "../market/users/session.server";
import { shopCookies } from "./cookies.server";

/**
 * Who is shopping: the signed-in viewer and the anonymous cart token. Pages send the cookies (logged in
 * means both gt and gsi exist); API callers may send the gt cookie's value as the `authorizationToken`
 * header and the anonymous token as the `ngt` header instead.
 */
export interface Shopper {
  viewer: Viewer | null;
  ngt: string | null;
  staleGt: boolean;
}

export async function readShopper(request: Request, context: AppLoadContext): Promise<Shopper> {
  // A page rendered to be shared by the shoppers it is the same for (app/utils/shared-pages.server.ts).
  if (context.sharedPage) return context.sharedPage.shopper;
  const cookies = shopCookies(context.env);
  const header = request.headers.get("cookie");
  const token = request.headers.get("authorizationToken");
  const [gt, gsi, ngt] = await Promise.all([
    token ? cookies.gt.parse(`gt=${token}`) : cookies.gt.parse(header),
    token ? true : cookies.gsi.parse(header),
    cookies.ngt.parse(header),
  ]);
  const viewer = await findViewer(context.db, typeof gt === "string" ? gt : null, Boolean(gsi));
  const ngtHeader = request.headers.get("ngt");
  // gt without gsi is not a session: the caller removes gt (spec section 4).
  const staleGt = !token && Boolean(gt) && !gsi;
  return { viewer, ngt: typeof ngt === "string" ? ngt : ngtHeader || null, staleGt };
}

export type Header = Awaited<ReturnType<typeof headerOf>>;

/** The header's data: viewer and cart count, and whether a stale gt cookie must be removed. */
export async function readHeader(request: Request, context: AppLoadContext): Promise<Header> {
  if (context.sharedPage) return context.sharedPage.header;
  return headerOf(await readShopper(request, context), context);
}

/** The header's data for a shopper already read. */
export async function headerOf({ viewer, ngt, staleGt }: Shopper, context: AppLoadContext) {
  const [cartCount, licensed, requestCount] = await Promise.all([
    countCart(context.db, { userId: viewer?.id ?? null, ngt }),
    viewer ? hasActiveLicense(context.db, viewer.id) : Promise.resolve(true),
    // A business representative's waiting purchase requests are loaded with the header (spec section 3).
    viewer?.userType === 2 ? countOpenRequests(context.db, viewer.id) : Promise.resolve(null),
  ]);
  return {
    viewer: viewer ? { nickname: viewer.nickname, userType: viewer.userType, noProduct: !licensed, requestCount } : null,
    cartCount,
    staleGt,
  };
}
