import { type AppLoadContext, data } from "@remix-run/node";
import { downloadLicenseOf, installationProblem } from "../market/downloads/downloads.server";
import { identifyLicense, type LicenseIdentity } from "../market/licenses.server";
import { swLicenseCookie } from "../utils/sw-license-cookie.server";

/**
 * The webview's licence: the editor sends `hw_info` and `license_id` headers on the first request; the
 * verified pair is kept in a signed HttpOnly cookie scoped to /mypage/sw so client-side navigation and form
 * posts keep working when the webview does not repeat the headers.
 */
function swCookie(context: AppLoadContext) {
  return swLicenseCookie(context.env);
}

export type EmbeddedIdentity =
  | { state: "ok"; license: LicenseIdentity; setCookie: string | null }
  | { state: "missing" }
  | { state: "invalid" };

export async function readEmbeddedLicense(request: Request, context: AppLoadContext): Promise<EmbeddedIdentity> {
  const cookie = swCookie(context);
  const serial = request.headers.get("license_id")?.trim();
  const hwInfo = request.headers.get("hw_info")?.trim();
  if (serial && hwInfo) {
    const license = await identifyLicense(context.db, serial, hwInfo);
    if (!license) return { state: "invalid" };
    return { state: "ok", license, setCookie: await cookie.serialize({ serial, hwInfo }) };
  }
  const saved = await cookie.parse(request.headers.get("cookie"));
  if (saved && typeof saved.serial === "string" && typeof saved.hwInfo === "string") {
    const license = await identifyLicense(context.db, saved.serial, saved.hwInfo);
    if (license) return { state: "ok", license, setCookie: null };
  }
  return { state: "missing" };
}

/**
 * The licence of the editor that opened the page. Without one, the response is thrown: 401 when there is none,
 * 403 when the headers or cookie name another installation (the layout then says which).
 */
export async function requireEmbeddedLicense(request: Request, context: AppLoadContext): Promise<LicenseIdentity> {
  const identity = await readEmbeddedLicense(request, context);
  if (identity.state !== "ok") throw data(null, { status: identity.state === "invalid" ? 403 : 401 });
  return identity.license;
}

/** The installation check's message key for the webview, or null. The webview is the Windows editor. */
export function installationProblemKey(licence: LicenseIdentity): string | null {
  const code = installationProblem(downloadLicenseOf(licence), true);
  return code ? `download.error.${code}` : null;
}
