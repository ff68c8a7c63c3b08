import { randomBytes } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import type { Viewer } from "../market/users/session.server";
import { type Header, headerOf, readShopper, type Shopper } from "./shopper.server";

/**
 * Pages shared by the shoppers they are the same for. A catalog page (home, landings, lists, details, searches,
 * notices...) shows a signed-in member, or a visitor with a cart, only what the store's header shows (the nickname,
 * the cart's count, the member's kind, licence and open purchase requests) and whether they are signed in. So the
 * page is rendered once for everybody with the same header data, with the nickname left as a hole, and each
 * member's response is that page with their own nickname (and nonce) filled in (app/utils/page-cache.server.ts).
 *
 * What makes it safe:
 * - the cache key is every part of the shopper a page may show, but the nickname: `key` below;
 * - the nickname is filled in only when it reads the same in every place a page may put it (HTML text and
 *   attributes, JSON, the script that hands the loaders' data to the browser): letters, marks, digits, spaces,
 *   dots, dashes and underscores. Anybody else's pages are rendered for them alone;
 * - during the shared render, loaders get the shopper through readShopper and readHeader as always, but a loader
 *   that reads anything of the shopper outside the key (the member's id or e-mail, the cart's token) marks the
 *   render personal: it is sent to its member and never kept (`touched`).
 */

/** Where the nickname goes in a shared page: a random token, the same for this process's renders. */
export const NICKNAME_TOKEN = `nk${randomBytes(12).toString("hex")}`;
export const NICKNAME_HOLE = "nickname";

/** Nicknames that read the same escaped for HTML, for JSON and for the script carrying JSON in a string. */
const PLAIN_NICKNAME = /^[\p{L}\p{M}\p{N} ._-]{1,60}$/u;

/** What a shared render's loaders may read of the viewer: the nickname (a hole) and the kind (in the key). */
const VIEWER_SHARED = new Set<PropertyKey>(["nickname", "userType"]);

export interface SharedShopperPage {
  /** The part of the page cache's key that is this shopper's: everything of the header but the nickname. */
  key: string;
  /** The values of this response for the page's holes (the nickname; the server adds the nonce). */
  values: Record<string, string>;
  /** The values the shared render puts in the page. */
  renderValues: Record<string, string>;
  /** The context for the shared render (loaders see the shared shopper). */
  renderContext: AppLoadContext;
  /** Whether the render read a part of the shopper outside the key: then it is this shopper's alone. */
  touched(): boolean;
}

/**
 * The shopper's part of a shared page, or null when their pages must be rendered for them alone (a session found
 * stale, which the page signs out with a cookie; a nickname that is not plain text).
 */
export async function sharedShopperPage(request: Request, context: AppLoadContext): Promise<SharedShopperPage | null> {
  const shopper = await readShopper(request, context);
  if (shopper.staleGt) return null;
  const header = await headerOf(shopper, context);
  const nickname = header.viewer?.nickname ?? null;
  if (nickname !== null && !PLAIN_NICKNAME.test(nickname)) return null;
  const { viewer, ...rest } = header;
  const key = JSON.stringify({ ...rest, viewer: viewer ? { ...viewer, nickname: undefined } : null });
  let touched = false;
  const sharedHeader: Header = { ...header, viewer: viewer ? { ...viewer, nickname: NICKNAME_TOKEN } : null };
  const sharedViewer = shopper.viewer
    ? new Proxy(shopper.viewer, {
        get(target, property, receiver) {
          if (property === "nickname") return NICKNAME_TOKEN;
          if (property === "then") return undefined;
          if (!VIEWER_SHARED.has(property)) touched = true;
          return Reflect.get(target, property, receiver);
        },
        ownKeys(target) {
          touched = true;
          return Reflect.ownKeys(target);
        },
      })
    : null;
  const sharedShopper = new Proxy(shopper, {
    get(target, property, receiver) {
      if (property === "viewer") return sharedViewer;
      // Asked by `await` of the object: it is not a promise.
      if (property === "then") return undefined;
      // The cart's token: the cart's lines are the shopper's (its count is in the key).
      if (property !== "staleGt") touched = true;
      return Reflect.get(target, property, receiver);
    },
    ownKeys(target) {
      touched = true;
      return Reflect.ownKeys(target);
    },
  }) as Shopper & { viewer: Viewer | null };
  return {
    key,
    values: nickname !== null ? { [NICKNAME_HOLE]: nickname } : {},
    renderValues: nickname !== null ? { [NICKNAME_HOLE]: NICKNAME_TOKEN } : {},
    renderContext: { ...context, sharedPage: { shopper: sharedShopper, header: sharedHeader } },
    touched: () => touched,
  };
}
