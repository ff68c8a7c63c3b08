import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { type Locale, loadCommon } from "./config";

/**
 * Keeps the browser's i18next on the page's language (remix-i18next's useChangeLanguage), first loading
 * that language's strings when the visitor has not needed them yet. The language switch is a full page
 * load, so this is a safety net for client-side navigations that change the language.
 */
export function useLocale(locale: Locale) {
  const { i18n } = useTranslation();
  const [, setLoaded] = useState(0);
  const ready = i18n.hasResourceBundle(locale, "common");
  useChangeLanguage(ready ? locale : i18n.language);
  useEffect(() => {
    if (ready) return;
    let cancelled = false;
    loadCommon(locale).then((common) => {
      if (cancelled) return;
      i18n.addResourceBundle(locale, "common", common);
      setLoaded((n) => n + 1);
    });
    return () => {
      cancelled = true;
    };
  }, [i18n, locale, ready]);
}
