import { useEffect } from "react";
import { useLocale } from "remix-i18next/react";
import { isLocale } from "./config";
import { useI18n } from "./react";

/**
 * Keeps the browser's strings on the language the root loader answered (remix-i18next's `useLocale`). The
 * language switch is a full page load, so this is a safety net for client-side navigations that change the
 * language (the other language's strings load first).
 */
export function useSyncLanguage() {
  const locale = useLocale();
  const { language, changeLanguage } = useI18n();
  useEffect(() => {
    if (isLocale(locale) && language !== locale) changeLanguage(locale);
  }, [language, locale, changeLanguage]);
}
