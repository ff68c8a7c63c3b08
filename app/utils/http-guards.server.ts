/**
 * What the HTTP server refuses before any route runs: malformed Host headers, methods it does not serve,
 * cross-origin writes that only a forged page would send, and page-form bodies that are not forms. Each refusal is a client error (4xx) with a
 * plain message, never a 500 from deep inside a route. Pure functions, so the rules are tested apart from Express.
 */
import { isIPv6 } from "node:net";
import { fallbackLanguage, isLocale, type Locale } from "../i18n/config";
import { fixedT } from "../i18n/i18n.server";
import { languageFromAcceptLanguage } from "../i18n/language.server";

/** The methods the store serves; anything else (TRACE, CONNECT, PROPFIND...) answers 405. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"] as const;

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Paths whose writes come from outside services or API clients, not from the store's own forms. */
const SERVER_TO_SERVER = /^\/webhooks\//;
const API = /^\/api\//;

export interface Refusal {
  status: number;
  message: string;
}

type HeaderGetter = (name: string) => string | undefined;

/** The host part (host[:port]) of an Origin header, "null" for an opaque origin, or undefined when unreadable. */
function originHost(origin: string): string | undefined {
  if (origin === "null") return "null";
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A write whose Origin is another site than the one it was sent to (the Host header; browsers never let a page
 * set either) is refused: the browser would otherwise carry the visitor's cookies to it. Page actions and the
 * sign-out get this check for every caller. API calls get it when they are authenticated by cookies alone: a call
 * carrying the `authorizationToken` header (which a cross-site page cannot add without a CORS pre-flight, which
 * the store never grants) is the editor or a script, not a forged form. Fetch metadata (Sec-Fetch-Site) refuses
 * cross-site writes from browsers that send it even where Origin is missing.
 */
export function crossOriginRefusal(method: string, path: string, header: HeaderGetter, publicHost: string): Refusal | null {
  if (!UNSAFE.has(method) || SERVER_TO_SERVER.test(path)) return null;
  if (API.test(path) && header("authorizationtoken")) return null;
  const site = header("sec-fetch-site");
  const origin = header("origin");
  const refused = { status: 403, message: "Cross-origin requests are not accepted" };
  if (site && site !== "same-origin" && site !== "none") return refused;
  if (origin === undefined) return null;
  const from = originHost(origin);
  // The site the request was sent to: the Host header, or the store's public address (behind a proxy that
  // rewrites Host).
  const hosts = [header("host")?.toLowerCase(), publicHost.toLowerCase()];
  if (!from || !hosts.includes(from)) return refused;
  return null;
}

/** host[:port] as RFC 3986 spells it: a registered name or IPv4 address (unreserved, sub-delims, %XX), or [IPv6]. */
const HOST = /^(?:\[([0-9A-Fa-f:.]+)\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::(\d*))?$/;

/**
 * A request names at most one well-formed Host (RFC 9112, section 3.2: more than one, or an invalid value, is a
 * 400; Node itself refuses an HTTP/1.1 request without one). The store never uses the Host for an address
 * (`requestAddress`), but a malformed one makes a malformed request, not one to render a page for. `rawHeaders` is
 * Node's list of names and values as received, where a repeated Host is still visible.
 */
export function hostRefusal(rawHeaders: readonly string[]): Refusal | null {
  const hosts: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === "host") hosts.push(rawHeaders[i + 1]);
  if (hosts.length === 0) return null;
  const bad = { status: 400, message: "Bad Host header" };
  const m = hosts.length === 1 ? HOST.exec(hosts[0]) : null;
  if (!m) return bad;
  const [, ipv6, port] = m;
  if (ipv6 !== undefined && !isIPv6(ipv6)) return bad;
  if (port && Number(port) > 65535) return bad;
  return null;
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * A write to a page (not the API, a webhook or a file) must carry a form: the store's pages only post forms. Any
 * other body (JSON, text, none) is refused with 415 before an action tries to read it.
 */
export function bodyTypeRefusal(method: string, path: string, contentType: string | undefined): Refusal | null {
  if (!UNSAFE.has(method) || API.test(path) || SERVER_TO_SERVER.test(path)) return null;
  const type = contentType?.split(";")[0].trim().toLowerCase();
  if (type && FORM_TYPES.includes(type)) {
    if (type === "multipart/form-data" && !/;\s*boundary=/i.test(contentType ?? ""))
      return { status: 400, message: "A multipart form needs its boundary" };
    return null;
  }
  return { status: 415, message: "Pages accept only form submissions" };
}

/**
 * The address a request is rendered for: the store's public origin plus the path the client asked for. The Host
 * header never reaches a page, so no client can make the store write another site's address into a page, a mail,
 * a cached copy or a gateway's callback. Null when the path is not a usable address.
 */
export function requestAddress(publicUrl: string, originalUrl: string): URL | null {
  if (!originalUrl.startsWith("/")) return null;
  try {
    const url = new URL(`${publicUrl}${originalUrl}`);
    return url.origin === new URL(publicUrl).origin ? url : null;
  } catch {
    return null;
  }
}

/** The longest credential the store reads: a header or cookie value past it is refused before any route sees it. */
export const MAX_CREDENTIAL_CHARS = 4096;
/** Headers that carry a credential or a token the store may answer with (a cart token renewed in Set-Cookie). */
const CREDENTIAL_HEADERS = ["authorizationtoken", "authorization", "ngt", "license_id", "hw_info"] as const;

/**
 * A credential the store never issues that long (its tokens are under 200 characters; a browser keeps no cookie over
 * 4 KB) is refused with 400 before it is read, looked up or echoed into a header (a cart token is renewed in
 * Set-Cookie). Answers the header's name (or `cookie <name>`).
 */
export function credentialRefusal(header: HeaderGetter): { status: 400; name: string } | null {
  for (const name of CREDENTIAL_HEADERS) {
    if ((header(name)?.length ?? 0) > MAX_CREDENTIAL_CHARS) return { status: 400, name };
  }
  const cookie = header("cookie");
  if (cookie && cookie.length > MAX_CREDENTIAL_CHARS) {
    for (const pair of cookie.split(";")) {
      const eq = pair.indexOf("=");
      if (pair.length - eq - 1 > MAX_CREDENTIAL_CHARS)
        return { status: 400, name: `cookie ${pair.slice(0, Math.max(0, eq)).trim().slice(0, 40)}` };
    }
  }
  return null;
}

/**
 * The refusal's message in the caller's language: the API's `language` header, the `lng` cookie, Accept-Language,
 * else the fallback (the site's own language choice is not read further: the request is refused).
 */
export function credentialRefusalMessage(refusal: { name: string }, header: HeaderGetter): string {
  const named = header("language");
  const cookie = rememberedLanguage(header("cookie"));
  const locale: Locale = isLocale(named)
    ? named
    : isLocale(cookie)
      ? cookie
      : (languageFromAcceptLanguage(header("accept-language") ?? null) ?? fallbackLanguage);
  return fixedT(locale)("refusals.credentialTooLong", { name: refusal.name, max: MAX_CREDENTIAL_CHARS });
}

/** The `lng` cookie's language (app/i18n/language.server.ts: Remix's unsigned cookie, base64 of the JSON string). */
function rememberedLanguage(cookie: string | undefined): string | null {
  const raw = /(?:^|;\s*)lng=([^;]{1,64})/.exec(cookie ?? "")?.[1];
  if (!raw) return null;
  if (isLocale(raw)) return raw;
  try {
    return JSON.parse(Buffer.from(decodeURIComponent(raw), "base64").toString("utf8"));
  } catch {
    return null;
  }
}
