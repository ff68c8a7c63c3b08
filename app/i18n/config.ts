import type { InitOptions } from "i18next";
import { formatCount } from "./translate";

export const supportedLanguages = ["ko", "en"] as const;
export type Locale = (typeof supportedLanguages)[number];
export const fallbackLanguage: Locale = "en";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);
}

/**
 * i18next's options, the same on the server and in the browser (remix-i18next's shared configuration). No fallback
 * language: both languages have every key (tests/unit/i18n-parity.test.ts), and a fallback would make the browser
 * load the other language's namespaces too.
 */
export const i18nOptions: InitOptions = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: false,
  load: "currentOnly",
  defaultNS: "common",
  fallbackNS: false,
  returnNull: false,
  interpolation: {
    escapeValue: false,
    // `{{count}}` with digit grouping, in both languages.
    alwaysFormat: true,
    format: (value, _format, lng, options) =>
      options?.interpolationkey === "count" && typeof value === "number" && isLocale(lng) ? formatCount(lng, value) : value,
  },
  // A client-side navigation to a page with namespaces not loaded yet waits for them (the router's transition).
  react: { useSuspense: true, bindI18n: "languageChanged loaded" },
};
