export const supportedLanguages = ["ko", "en"] as const;
export type Locale = (typeof supportedLanguages)[number];
export const fallbackLanguage: Locale = "en";
export const defaultNS = "common";

/**
 * One language's strings, loaded on demand in the browser (each language is its own chunk, so a visitor
 * downloads only theirs). The server bundles both (app/i18n/resources.ts).
 */
export function loadCommon(locale: Locale): Promise<Record<string, unknown>> {
  return (locale === "ko" ? import("./locales/ko/common.json") : import("./locales/en/common.json")).then((m) => m.default);
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);
}

/** Shared i18next options for the server and the browser. */
export const i18nConfig = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS,
  ns: [defaultNS],
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};
