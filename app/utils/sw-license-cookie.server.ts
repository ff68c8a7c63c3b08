import { type AppLoadContext, createCookie } from "@remix-run/node";
import { sessionSecret } from "./cookies.server";

/**
 * The webview's licence cookie (`sw_license`, signed, HttpOnly, scoped to /mypage/sw): the licence key and hardware
 * fingerprint of the editor installation the webview speaks for, verified when it was set. The embedded tree sets it
 * from the editor's headers (app/embedded/licence.server.ts); the editor's hand-off for a business key sets it too
 * (the key-only experience, docs/editor-sign-in.md). It opens the webview for that key and nothing else.
 */
export function swLicenseCookie(env: AppLoadContext["env"]) {
  return createCookie("sw_license", {
    path: "/mypage/sw",
    httpOnly: true,
    sameSite: "lax",
    secure: Boolean(env.PUBLIC_URL?.startsWith("https://")),
    secrets: [sessionSecret(env)],
    maxAge: 60 * 60 * 12,
  });
}

/** The Set-Cookie header that makes the webview speak for this installation. */
export function embeddedLicenseCookie(env: AppLoadContext["env"], licence: { serial: string; hwInfo: string }): Promise<string> {
  return swLicenseCookie(env).serialize({ serial: licence.serial, hwInfo: licence.hwInfo });
}
