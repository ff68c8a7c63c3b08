export const supportedLanguages = ["ko", "en"] as const;
export type Locale = (typeof supportedLanguages)[number];
export const fallbackLanguage: Locale = "en";

/**
 * One language's strings as a chunk, for the browser when a client-side navigation changes the language (the
 * document carries the first language as JSON; the server bundles both, app/i18n/resources.ts).
 */
export function loadCommon(locale: Locale): Promise<Record<string, unknown>> {
  return (locale === "ko" ? import("./locales/ko/common.json") : import("./locales/en/common.json")).then((m) => m.default);
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);
}
