import { createInstance, type i18n } from "i18next";
import { fallbackLanguage, type Locale, supportedLanguages } from "./config";
import { resources } from "./resources";
import { type Bundle, formatCount, type TFunction } from "./translate";

/** Every language's bundle, for the server render (the document then carries only the page's language). */
export const serverBundles: Record<Locale, Bundle> = { en: resources.en.common, ko: resources.ko.common };

/**
 * The server translates with i18next: one instance per language, created once (the resources are bundled and an
 * instance's language never changes, so concurrent requests share it). The browser uses the small `createT`
 * over the same files; tests/unit/translate.test.tsx holds the two to the same output for every key.
 */
function createServerI18n(locale: Locale): i18n {
  const instance = createInstance();
  instance.init({
    lng: locale,
    supportedLngs: [...supportedLanguages],
    fallbackLng: fallbackLanguage,
    defaultNS: "common",
    ns: ["common"],
    resources,
    interpolation: {
      escapeValue: false,
      // `{{count}}` with digit grouping, as the browser's createT shows it.
      alwaysFormat: true,
      format: (value, _format, _lng, options) =>
        options?.interpolationkey === "count" && typeof value === "number" ? formatCount(locale, value) : value,
    },
    initImmediate: false,
  });
  return instance;
}

/**
 * A text without values is the same for every render (the resources are bundled): each language keeps the answers
 * for its keys, found ones only (a missing key answers itself and is not kept), so the memo is bounded by the
 * bundle's keys. Texts with values are translated every time.
 */
const translators = Object.fromEntries(
  supportedLanguages.map((locale) => {
    const t = createServerI18n(locale).getFixedT(locale);
    const plain = new Map<string, string>();
    const translate = (key: string, values?: Record<string, unknown>) => {
      if (values) return t(key, values);
      const known = plain.get(key);
      if (known !== undefined) return known;
      const text = t(key, {});
      if (typeof text === "string" && text !== key) plain.set(key, text);
      return text;
    };
    return [locale, translate as TFunction];
  }),
) as Record<Locale, TFunction>;

/** A translation function fixed to one language, for the server render, loaders, actions and the API. */
export function fixedT(locale: Locale): TFunction {
  return translators[locale];
}
