import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { PAGE_CACHE_HEADER } from "./cache";
import {
  gzipParts,
  type Hole,
  makeTemplate,
  plainText,
  type SharedPiece,
  type SplicedTemplate,
  sharedPiece,
  templateBytes,
} from "./spliced-gzip";

/**
 * A micro-cache of rendered pages, shared by the visitors a page is the same for: anonymous visitors, and members
 * whose parts of the page are the same (app/utils/shared-pages.server.ts puts those parts in the key). A page
 * enters only when its route opted in (X-Page-Cache: seconds), it answered 200 and it sets no cookie. Concurrent
 * misses for one key wait for a single render. The values that differ per response (the CSP nonce; a member's
 * nickname) are holes in the stored page, filled for each response: a stored page is kept gzip-compressed once, in
 * pieces between its holes, and sent compressed with the response's values spliced in (app/utils/spliced-gzip.ts).
 */
export interface RenderedPage {
  kind: "rendered";
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** Where the render's own values (its nonce, the nickname's token) sit in the body. */
  holes: Hole[];
  storable: boolean;
  expires: number;
  staleUntil: number;
}

/** A page as the cache keeps it: its text compressed in pieces between its holes. */
export interface StoredPage {
  kind: "stored";
  status: number;
  headers: [string, string][];
  template: SplicedTemplate;
  expires: number;
  /** Until when the page may still be served while a new render of it is made (one more period). */
  staleUntil: number;
}

export type CachedPage = RenderedPage | StoredPage;

/** Cookies that never change what a page shows to its visitor (the language is part of the cache key). */
export const NEUTRAL_COOKIES = ["lng"];

/**
 * Request headers that identify somebody: a member (the API's authorizationToken, HTTP authorization), an
 * anonymous cart (ngt) or an editor's licence (license_id, hw_info). A page rendered for them is theirs alone.
 */
export const CREDENTIAL_HEADERS = ["authorizationtoken", "authorization", "ngt", "license_id", "hw_info"];

/** Cookies of a shopper (the session's gt and gsi, the anonymous cart's ngt): shared pages key on what they show. */
export const SHOPPER_COOKIES = ["gt", "gsi", "ngt"];

/**
 * Who may be served from (and stored in) the cache: GETs of pages (not the API, member pages, files, payments or
 * webhooks) without a credential header. "anonymous": no cookie but the neutral ones. "shopper": a shopper's
 * cookies besides those (app/utils/shared-pages.server.ts keys the page on what it shows of them). A visitor
 * carrying any other cookie (a pending payment, a licence, one the store does not know) gets a page rendered for
 * them alone (null).
 */
export function cacheAudience(method: string, path: string, header: (name: string) => string | undefined): "anonymous" | "shopper" | null {
  if (method !== "GET") return null;
  if (/^\/(api\/|mypage|files\/|pay|sandbox\/|webhooks\/)/.test(path)) return null;
  if (CREDENTIAL_HEADERS.some((name) => header(name) !== undefined)) return null;
  const cookieHeader = header("cookie");
  if (!cookieHeader) return "anonymous";
  let shopper = false;
  for (const part of cookieHeader.split(";")) {
    const name = part.trim().split("=")[0];
    if (name === "" || NEUTRAL_COOKIES.includes(name)) continue;
    if (!SHOPPER_COOKIES.includes(name)) return null;
    shopper = true;
  }
  return shopper ? "shopper" : "anonymous";
}

/** What a stored page costs besides its body and headers: the entry, its key in the map, the header arrays. */
const ENTRY_OVERHEAD_BYTES = 512;

/** The bytes a stored page holds: its compressed pieces and tables, header text, key (two bytes a character, as V8 may keep it) and overhead. */
export function pageBytes(page: StoredPage, key: string): number {
  let headers = 0;
  for (const [name, value] of page.headers) headers += name.length + value.length + 32;
  return templateBytes(page.template) + headers + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

/** A render's values are random tokens of at least this many characters: they occur nowhere else in a page. */
const MIN_TOKEN_LENGTH = 16;

/** Where the render's values sit in the body. */
export function holesOf(body: Buffer, values: Record<string, string>): Hole[] {
  const holes: Hole[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value.length < MIN_TOKEN_LENGTH) throw new Error(`the render's ${name} is not a random token`);
    const needle = Buffer.from(value, "utf8");
    for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, at + needle.length))
      holes.push({ at, length: needle.length, name });
  }
  return holes.sort((a, b) => a.at - b.at);
}

export const PAGE_CACHE_DEFAULTS = { maxBytes: 8 * 1024 * 1024, maxEntries: 4000 } as const;

/**
 * The cache: bounded by bytes (`maxBytes`, what pageBytes counts, pages kept compressed; PAGE_CACHE_MB on the
 * server) and by entries, least recently used first out; expired pages are dropped at least every `sweepMs` rather
 * than when the bound reaches them (once past their period and the one more they may be served stale). A page
 * taking more than an eighth of the budget is served but not kept.
 */
/** A region of a page's text (byte offset and length). */
export interface Region {
  at: number;
  length: number;
}

/**
 * The text of the JSON script with this id (`<script id="..." type="application/json">`), as a region of the page:
 * the page's translations, the same on every page of a language, are a shared piece of the stored pages.
 */
export function jsonScriptRegion(id: string): (body: Buffer) => Region[] {
  const open = Buffer.from(`<script id="${id}" type="application/json">`, "utf8");
  const close = Buffer.from("</script>", "utf8");
  return (body) => {
    const at = body.indexOf(open);
    if (at < 0) return [];
    const start = at + open.length;
    const end = body.indexOf(close, start);
    return end < 0 ? [] : [{ at: start, length: end - start }];
  };
}

/** Shared text shorter than this is kept in each page. */
const MIN_SHARED_BYTES = 1024;
/** What the cache keeps its pages in: lru-cache's LRUCache, or nothing at all for a budget of 0. */
interface PageStore {
  get(key: string): StoredPage | undefined;
  set(key: string, page: StoredPage): unknown;
  delete(key: string): boolean;
  clear(): void;
  entries(): Iterable<[string, StoredPage]>;
  readonly size: number;
  readonly calculatedSize: number;
}

const NO_PAGES: PageStore = {
  get: () => undefined,
  set: () => undefined,
  delete: () => false,
  clear: () => {},
  entries: () => [],
  size: 0,
  calculatedSize: 0,
};

/** How many shared pieces a cache keeps for the pages it stores next (pieces in use stay with their pages). */
const SHARED_KEPT = 16;

export function createPageCache(
  options: {
    maxEntries?: number;
    maxBytes?: number;
    sweepMs?: number;
    /** Regions of a page that many pages hold alike: compressed once, kept once, referred to by each page. */
    sharedRegions?: (body: Buffer) => Region[];
  } = {},
) {
  // lru-cache bounded by bytes (what pageBytes counts), with the entry count as a backstop; a page over an eighth of
  // the budget is served but not kept, so one huge page cannot empty the cache. A budget of 0 keeps nothing.
  const maxBytes = Math.max(0, options.maxBytes ?? PAGE_CACHE_DEFAULTS.maxBytes);
  const maxEntries = options.maxEntries ?? PAGE_CACHE_DEFAULTS.maxEntries;
  const lru: PageStore =
    maxBytes > 0 && maxEntries > 0
      ? new LRUCache<string, StoredPage>({
          max: maxEntries,
          maxSize: maxBytes,
          maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
          sizeCalculation: (page, key) => pageBytes(page, key),
        })
      : NO_PAGES;
  const sweepMs = options.sweepMs ?? 5000;
  const inflight = new Map<string, Promise<RenderedPage>>();
  let swept = 0;
  const shared = new Map<string, SharedPiece>();

  function sharedFor(text: Buffer): SharedPiece {
    const key = createHash("sha1").update(text).digest("base64");
    const held = shared.get(key);
    if (held) {
      shared.delete(key);
      shared.set(key, held);
      return held;
    }
    const piece = sharedPiece(text);
    shared.set(key, piece);
    if (shared.size > SHARED_KEPT) shared.delete(shared.keys().next().value as string);
    return piece;
  }

  function store(page: RenderedPage): StoredPage {
    const holes = [...page.holes];
    for (const region of options.sharedRegions?.(page.body) ?? []) {
      if (region.length < MIN_SHARED_BYTES) continue;
      // A region holding one of the response's values is not the same on every page.
      if (holes.some((h) => h.at < region.at + region.length && region.at < h.at + h.length)) continue;
      const text = page.body.subarray(region.at, region.at + region.length);
      holes.push({ ...region, name: "shared", shared: sharedFor(text) });
    }
    holes.sort((a, b) => a.at - b.at);
    const { status, headers, expires, staleUntil } = page;
    return { kind: "stored", status, headers, template: makeTemplate(page.body, holes), expires, staleUntil };
  }

  async function toPage(response: Response, values: Record<string, string>, now: number): Promise<RenderedPage> {
    const body = Buffer.from(await response.arrayBuffer());
    const seconds = Number(response.headers.get(PAGE_CACHE_HEADER) ?? 0);
    const headers = [...response.headers.entries()].filter(([k]) => k.toLowerCase() !== PAGE_CACHE_HEADER.toLowerCase());
    const storable = response.status === 200 && seconds > 0 && !response.headers.has("set-cookie");
    const expires = now + seconds * 1000;
    return {
      kind: "rendered",
      status: response.status,
      headers,
      body,
      holes: holesOf(body, values),
      storable,
      expires,
      staleUntil: expires + seconds * 1000,
    };
  }

  return {
    get size() {
      return lru.size;
    },
    /** Bytes held, as pageBytes counts them; never above the budget. */
    get bytes() {
      return lru.calculatedSize;
    },
    get maxBytes() {
      return maxBytes;
    },
    /**
     * A fresh page, or a render (shared with concurrent requests for the same key). `values` are the render's own
     * values for the holes (its nonce, the nickname's token), found in its body by their text. A page past its
     * period but within one more is served as it is ("stale") while one render replaces it in the background, so
     * no visitor waits for the render of a page that is being asked for; the key holds the content's version and
     * the service modes, so a stale page is only ever older, never another version.
     */
    async get(
      key: string,
      values: Record<string, string>,
      render: () => Promise<Response>,
      now = Date.now(),
    ): Promise<{ page: CachedPage; hit: boolean; stale?: boolean }> {
      if (now - swept >= sweepMs) {
        swept = now;
        const gone: string[] = [];
        for (const [key, page] of lru.entries()) if (page.staleUntil <= now) gone.push(key);
        for (const key of gone) lru.delete(key);
      }
      const stored = lru.get(key);
      if (stored && stored.expires > now) return { page: stored, hit: true };
      if (stored && stored.staleUntil > now) {
        if (!inflight.has(key)) {
          const work = render().then((response) => toPage(response, values, now));
          inflight.set(key, work);
          work
            .then(
              (page) => (page.storable ? lru.set(key, store(page)) : lru.delete(key)),
              () => lru.delete(key),
            )
            .finally(() => {
              if (inflight.get(key) === work) inflight.delete(key);
            });
        }
        return { page: stored, hit: true, stale: true };
      }
      if (stored) lru.delete(key);
      const pending = inflight.get(key);
      if (pending) {
        const page = await pending;
        if (page.storable) return { page, hit: true };
      }
      const work = render().then((response) => toPage(response, values, now));
      if (!pending) inflight.set(key, work);
      try {
        const page = await work;
        if (page.storable) lru.set(key, store(page));
        return { page, hit: false };
      } finally {
        if (inflight.get(key) === work) inflight.delete(key);
      }
    },
    clear() {
      lru.clear();
    },
  };
}

/**
 * The page's body for one response, with its values in the holes: a stored page as gzip when the client takes it
 * (the stored pieces as they are, the values spliced between them: nothing compressed per response), otherwise as
 * text; a page just rendered as text (the server's compression then applies), as views of its bytes with the
 * values between them.
 */
export function pageBody(page: CachedPage, values: Record<string, string>, gzip: boolean): { parts: Buffer[]; encoding: "gzip" | null } {
  const bytes: Record<string, Buffer> = {};
  for (const [name, value] of Object.entries(values)) bytes[name] = Buffer.from(value, "utf8");
  if (page.kind === "stored")
    return gzip
      ? { parts: gzipParts(page.template, bytes), encoding: "gzip" }
      : { parts: [plainText(page.template, bytes)], encoding: null };
  const parts: Buffer[] = [];
  let from = 0;
  for (const hole of page.holes) {
    const value = bytes[hole.name];
    if (value === undefined) throw new Error(`no value for ${hole.name}`);
    parts.push(page.body.subarray(from, hole.at), value);
    from = hole.at + hole.length;
  }
  parts.push(page.body.subarray(from));
  return { parts, encoding: null };
}
