import type { HeadersFunction } from "@remix-run/node";

/**
 * Named cache policies (exported as route `headers`). `X-Page-Cache: <seconds>` lets the server's page
 * micro-cache (app/utils/page-cache.server.ts) keep the rendered page for anonymous visitors; the header is
 * stripped before the answer leaves, and browsers and CDNs are told not to store the HTML (it carries a
 * per-request CSP nonce and, for members, their cart).
 */
export const CACHE_POLICIES = {
  catalog: { pageCacheSeconds: 30 },
  document: { pageCacheSeconds: 300 },
} as const;

export const PAGE_CACHE_HEADER = "X-Page-Cache";

export function cacheHeaders(policy: keyof typeof CACHE_POLICIES): HeadersFunction {
  return ({ parentHeaders, loaderHeaders }) => {
    const headers = new Headers();
    for (const source of [parentHeaders, loaderHeaders]) for (const cookie of source.getSetCookie()) headers.append("Set-Cookie", cookie);
    headers.set("Cache-Control", "private, no-cache");
    headers.set(PAGE_CACHE_HEADER, String(CACHE_POLICIES[policy].pageCacheSeconds));
    return headers;
  };
}
