import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig, isLocale, loadCommon } from "./i18n/config";

async function hydrate() {
  // The server rendered the page in <html lang>; load only that language's strings.
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : "en";
  const common = await loadCommon(locale);
  await i18next.use(initReactI18next).init({ ...i18nConfig, lng: locale, resources: { [locale]: { common } } });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate();
