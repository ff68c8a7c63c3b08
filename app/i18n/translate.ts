import type { i18n } from "i18next";
import type { Locale } from "./config";
import { splitKey } from "./namespaces";

/** One language's strings: nested objects of strings, keys joined by '.'. */
export type Bundle = { readonly [key: string]: string | Bundle };
export type TranslateValues = { count?: number } & Record<string, unknown>;
export type TFunction = (key: string, values?: TranslateValues) => string;

const numberFormats: Record<Locale, Intl.NumberFormat> = { en: new Intl.NumberFormat("en"), ko: new Intl.NumberFormat("ko") };

/** A count as people read it: 31,072 (the same in both languages and on server and browser). */
export const formatCount = (locale: Locale, count: number) => numberFormats[locale].format(count);

/**
 * A text without values is the same every time (strings never change once loaded): each language keeps the answers
 * for its keys, found ones only, so the memo is bounded by the strings' keys. Texts with values go to i18next.
 */
const plainTexts: Record<Locale, Map<string, string>> = { en: new Map(), ko: new Map() };

/**
 * The store's `t` over an i18next instance: the whole key (`"cart.title"`, app/i18n/namespaces.ts says which
 * namespace holds it), i18next's `{{name}}` placeholders and `_one`/`_other` plurals. A key it cannot find answers
 * itself; in the browser that also says so on the console (a namespace the page did not declare in `handle.i18n`).
 * `used` collects the namespaces asked for (the server sends those with the document).
 */
export function makeT(instance: i18n, lng: Locale, used?: Set<string>): TFunction {
  const memo = plainTexts[lng];
  return (key, values) => {
    const [ns, inner] = splitKey(key);
    used?.add(ns);
    if (!values) {
      const known = memo.get(key);
      if (known !== undefined) return known;
    }
    const text = instance.t(inner, { ...values, ns, lng }) as unknown;
    if (typeof text !== "string" || text === inner) {
      if (typeof window !== "undefined")
        console.error(`i18n: no text for "${key}" in ${lng} (namespace ${ns} loaded: ${instance.hasLoadedNamespace(ns)})`);
      return key;
    }
    if (!values) memo.set(key, text);
    return text;
  };
}
