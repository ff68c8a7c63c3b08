import type { AppLoadContext } from "@remix-run/node";
import type { RedeemedHandOff } from "../market/users/hand-off.server";
import { signedInCookies, signedOutCookies } from "./auth.server";
import { signedInAddress } from "./market-query";
import { safePath } from "./redirect";
import { embeddedLicenseCookie } from "./sw-license-cookie.server";

/**
 * What a redeemed editor hand-off gives the browser or the editor (docs/editor-sign-in.md), shared by /bridge and
 * `GET /api/v1/etc/decrypt`:
 * - member: the member's gt/gsi cookies, and on to `redirectTo` (My page by default);
 * - key: the webview's licence cookie for that key (scoped to /mypage/sw) and any member session signed out, on to
 *   the webview (a `redirectTo` outside /mypage/sw is not followed): nothing of an account;
 * - join: no cookie; the way to join (or sign in) and link the key.
 */
export async function handOffCookies(context: AppLoadContext, redeemed: RedeemedHandOff): Promise<string[]> {
  if (redeemed.kind === "member") return signedInCookies(context, redeemed.sessionId, redeemed.user.userType);
  if (redeemed.kind === "key") return [await embeddedLicenseCookie(context.env, redeemed.license), ...(await signedOutCookies(context))];
  return [];
}

/** The licence link form on My page, with the key filled in. */
export const linkLicencePath = (serial: string) => `/mypage/licenses?link=${encodeURIComponent(serial)}#link-licence`;

/** Where the hand-off goes on to. */
export function handOffDestination(redeemed: RedeemedHandOff, redirectTo: string | null): string {
  if (redeemed.kind === "member") return signedInAddress(safePath(redirectTo, "/mypage/home"), redeemed.user.userType);
  if (redeemed.kind === "key") {
    const to = safePath(redirectTo, "/mypage/sw/home");
    return /^\/mypage\/sw(\/|$|\?)/.test(to) ? to : "/mypage/sw/home";
  }
  return `/join?redirectTo=${encodeURIComponent(linkLicencePath(redeemed.license.serial))}`;
}

/** The wire name of a hand-off's kind (docs/editor-sign-in.md). */
export const handOffKindName = (kind: RedeemedHandOff["kind"]) => (kind === "key" ? "key_only" : kind);
