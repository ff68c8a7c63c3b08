import { useTranslation as useI18next } from "react-i18next";
import { useChangeLanguage, useLocale } from "remix-i18next/react";
import { isLocale } from "./config";
import { useRouteNamespaces } from "./react";

/**
 * Keeps the browser's strings on the language the root loader answered (remix-i18next's `useLocale` and
 * `useChangeLanguage`), and on the namespaces the matched routes declare: a client-side navigation to a page with
 * namespaces not loaded yet suspends here until /locales answers, inside the router's transition, so the old page
 * stays until the new one can show its words.
 */
export function useSyncLanguage() {
  const locale = useLocale();
  useChangeLanguage(isLocale(locale) ? locale : "en");
  useI18next(useRouteNamespaces());
}
