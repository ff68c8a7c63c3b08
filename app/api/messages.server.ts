import type { Locale } from "../i18n/config";
import { fixedT } from "../i18n/i18n.server";
import { storeStrings } from "../i18n/resources";

export const apiErrors = (language: Locale) => storeStrings[language].apiError as Record<string, string>;

/**
 * Every message the API answers, in the caller's language: the `apiError` entry of its code (tests/unit/
 * api-messages.test.ts holds every code the API can answer to an entry in both languages).
 */
export function apiMessage(language: Locale, code: string, values?: Record<string, string | number>, fallback = code): string {
  return code in apiErrors(language) ? fixedT(language)(`apiError.${code}`, values) : fallback;
}
