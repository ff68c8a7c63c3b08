import enCommon from "./locales/en/common.json";
import koCommon from "./locales/ko/common.json";

export const supportedLanguages = ["ko", "en"] as const;
export type Locale = (typeof supportedLanguages)[number];
export const fallbackLanguage: Locale = "en";
export const defaultNS = "common";

export const resources = {
  en: { common: enCommon },
  ko: { common: koCommon },
} as const;

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
