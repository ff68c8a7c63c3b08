import type { Locale } from "./config";

/** One language's strings: nested objects of strings, keys joined by '.'. */
export type Bundle = { readonly [key: string]: string | Bundle };
export type TranslateValues = { count?: number } & Record<string, unknown>;
export type TFunction = (key: string, values?: TranslateValues) => string;

const pluralRules: Record<Locale, Intl.PluralRules> = { en: new Intl.PluralRules("en"), ko: new Intl.PluralRules("ko") };
const pluralOf = (locale: Locale, count: number) => pluralRules[locale].select(count);

const numberFormats: Record<Locale, Intl.NumberFormat> = { en: new Intl.NumberFormat("en"), ko: new Intl.NumberFormat("ko") };

/** A count as people read it: 31,072 (the same in both languages and on server and browser). */
export const formatCount = (locale: Locale, count: number) => numberFormats[locale].format(count);

function lookup(bundle: Bundle, key: string): string | undefined {
  let node: string | Bundle | undefined = bundle;
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/**
 * The translation function over one language's bundle, with the subset of i18next's format the locale files use:
 * '.'-separated keys, `{{name}}` placeholders (not escaped: React escapes), and plurals chosen by `count` through
 * `Intl.PluralRules` from `key_one` / `key_other` / ... falling back to `key`; `{{count}}` shows the count with
 * digit grouping (formatCount). A missing key answers the key itself.
 */
export function createT(locale: Locale, bundle: Bundle): TFunction {
  return (key, values) => {
    let text: string | undefined;
    if (typeof values?.count === "number")
      text = lookup(bundle, `${key}_${pluralOf(locale, values.count)}`) ?? lookup(bundle, `${key}_other`);
    text ??= lookup(bundle, key);
    if (text === undefined) return key;
    if (!values || !text.includes("{{")) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
      const value = values[name];
      if (name === "count" && typeof value === "number") return formatCount(locale, value);
      return value === undefined || value === null ? whole : String(value);
    });
  };
}

/** How a pass is named everywhere (cart, checkout, payments): "<group> pass, <count> items". */
export const passTitle = (t: TFunction, group: string, count: number) => t("pay.passTitle", { group: t(`price.group.${group}`), count });
