/**
 * The store's strings are written in one file per language (locales/<lng>/common.json, its top-level keys by
 * area: `cart`, `pay`, `search`, ...) and the console's in locales/<lng>/admin-<section>.json. i18next reads them as
 * namespaces, so a page carries only the areas it shows (issue 27):
 * - `common`: the strings of every page's frame (header, footer, navigation, titles, the error pages) and the
 *   top-level strings (`brand`, `loading`, ...);
 * - one namespace per other area of common.json, named as its key (`cart`, `pay`, ...);
 * - `admin`: the console's sections (`admin.<section>.<key>`).
 * Code keeps writing the whole key, `t("cart.title")`: `splitKey` says which namespace holds it. Each route names
 * the namespaces its page shows in `handle.i18n` (remix-i18next's convention), checked by
 * tests/unit/route-namespaces.test.ts.
 */
export const COMMON_AREAS = ["header", "footer", "nav", "meta", "chunkLoad", "errorService", "notFound"] as const;

/**
 * Keys (or a subtree of two levels) that live in another namespace than their area's, keeping their whole path
 * there. In `common`: what every storefront page's frame shows (the header's search box, its menu's words, the notices
 * after a redirect: signed out, sign-in needed, checkout expired) or many pages show (a pass's name). In `cartResult`:
 * what adding to the cart answers, shown on every page with an add button, which need nothing else of the cart.
 */
export const MOVED_KEYS: Readonly<Record<string, string>> = {
  "search.label": "common",
  "search.placeholder": "common",
  "search.submit": "common",
  "event.title": "common",
  "licenses.title": "common",
  "mypage.noProduct": "common",
  "mypage.noProductLabel": "common",
  "auth.signInAgain": "common",
  "auth.requiresAuth": "common",
  "pay.sessionExpired": "common",
  "pay.passTitle": "common",
  "cart.result": "cartResult",
};

const common = new Set<string>(COMMON_AREAS);

/** The namespace holding a key, and the key within it. */
export function splitKey(key: string): [namespace: string, key: string] {
  const dot = key.indexOf(".");
  if (dot < 0) return ["common", key];
  const head = key.slice(0, dot);
  if (common.has(head)) return ["common", key];
  const next = key.indexOf(".", dot + 1);
  const moved = MOVED_KEYS[next < 0 ? key : key.slice(0, next)];
  return moved ? [moved, key] : [head, key.slice(dot + 1)];
}

/** The namespaces route handles declare (remix-i18next's `handle.i18n`: a name or a list), `common` first, each once. */
export function namespacesOfHandles(handles: readonly unknown[]): string[] {
  const out = new Set<string>(["common"]);
  for (const handle of handles) for (const ns of [(handle as { i18n?: string | string[] } | undefined)?.i18n ?? []].flat()) out.add(ns);
  return [...out];
}

type Tree = { readonly [key: string]: string | Tree };

/** One language's common.json as namespaces. */
export function namespacesOf(bundle: Tree): Record<string, Tree> {
  const out: Record<string, Record<string, string | Tree>> = { common: {} };
  for (const [area, value] of Object.entries(bundle)) {
    if (typeof value === "string" || common.has(area)) out.common[area] = value;
    else out[area] = { ...value };
  }
  for (const [key, ns] of Object.entries(MOVED_KEYS)) {
    const [area, name] = key.split(".");
    const value = (bundle[area] as Tree | undefined)?.[name];
    if (value === undefined) throw new Error(`namespaces.ts: MOVED_KEYS names ${key}, which the strings do not have`);
    out[ns] ??= {};
    out[ns][area] = { ...(out[ns][area] as Tree | undefined), [name]: value };
    delete out[area][name];
  }
  return out;
}
