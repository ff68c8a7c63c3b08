import { PAGE_CACHE_HEADER } from "./cache";

/**
 * A micro-cache of rendered pages for anonymous visitors. A page enters only when its route opted in
 * (X-Page-Cache: seconds), it answered 200 and it sets no cookie. Concurrent misses for one key wait for
 * a single render. The CSP nonce of the render is swapped for each visitor's own nonce on the way out.
 */
export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  nonce: string;
  storable: boolean;
  expires: number;
}

/** Cookies that never change what a page shows to its visitor (the language is part of the cache key). */
export const NEUTRAL_COOKIES = ["lng"];

/**
 * Request headers that identify somebody: a member (the API's authorizationToken, HTTP authorization), an
 * anonymous cart (ngt) or an editor's licence (license_id, hw_info). A page rendered for them is theirs alone.
 */
export const CREDENTIAL_HEADERS = ["authorizationtoken", "authorization", "ngt", "license_id", "hw_info"];

/**
 * Only anonymous GETs may be served from (and stored in) the cache: no credential header and no cookie but the
 * neutral ones. A visitor carrying any other cookie (a session, a cart, a licence, a pending payment, or one the
 * store does not know) gets a page rendered for them alone.
 */
export function isCacheableRequest(method: string, path: string, header: (name: string) => string | undefined): boolean {
  if (method !== "GET") return false;
  // Not the API, member pages, files (streamed, never held in memory), payments or webhooks.
  if (/^\/(api\/|mypage|files\/|pay|sandbox\/|webhooks\/)/.test(path)) return false;
  if (CREDENTIAL_HEADERS.some((name) => header(name) !== undefined)) return false;
  const cookieHeader = header("cookie");
  if (!cookieHeader) return true;
  return cookieHeader
    .split(";")
    .map((part) => part.trim().split("=")[0])
    .every((name) => name === "" || NEUTRAL_COOKIES.includes(name));
}

export function createPageCache(options: { maxEntries?: number; maxBytes?: number } = {}) {
  const maxEntries = options.maxEntries ?? 2000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const entries = new Map<string, CachedPage>();
  const inflight = new Map<string, Promise<CachedPage>>();
  let bytes = 0;

  const evict = (key: string) => {
    const old = entries.get(key);
    if (old) bytes -= old.body.length;
    entries.delete(key);
  };

  async function toPage(response: Response, nonce: string, now: number): Promise<CachedPage> {
    const body = Buffer.from(await response.arrayBuffer());
    const seconds = Number(response.headers.get(PAGE_CACHE_HEADER) ?? 0);
    const headers = [...response.headers.entries()].filter(([k]) => k.toLowerCase() !== PAGE_CACHE_HEADER.toLowerCase());
    const storable = response.status === 200 && seconds > 0 && !response.headers.has("set-cookie");
    return { status: response.status, headers, body, nonce, storable, expires: now + seconds * 1000 };
  }

  return {
    get size() {
      return entries.size;
    },
    /** A fresh page, or a render (shared with concurrent requests for the same key). */
    async get(key: string, nonce: string, render: () => Promise<Response>, now = Date.now()): Promise<{ page: CachedPage; hit: boolean }> {
      const cached = entries.get(key);
      if (cached && cached.expires > now) {
        entries.delete(key);
        entries.set(key, cached); // most recently used last
        return { page: cached, hit: true };
      }
      if (cached) evict(key);
      const pending = inflight.get(key);
      if (pending) {
        const page = await pending;
        if (page.storable) return { page, hit: true };
      }
      const work = render().then((response) => toPage(response, nonce, now));
      if (!pending) inflight.set(key, work);
      try {
        const page = await work;
        if (page.storable && page.body.length < maxBytes / 8) {
          entries.set(key, page);
          bytes += page.body.length;
          while (entries.size > maxEntries || bytes > maxBytes) evict(entries.keys().next().value as string);
        }
        return { page, hit: false };
      } finally {
        if (inflight.get(key) === work) inflight.delete(key);
      }
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
  };
}

/** The page's body with the render's nonce replaced by this visitor's nonce. */
export function bodyFor(page: CachedPage, nonce: string): Buffer {
  if (!page.nonce || page.nonce === nonce) return page.body;
  return Buffer.from(page.body.toString("utf8").replaceAll(`nonce="${page.nonce}"`, `nonce="${nonce}"`), "utf8");
}
