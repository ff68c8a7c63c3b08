import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig, isLocale } from "./i18n/config";
import { resources } from "./i18n/resources";

// Both languages ship with the entry: hydration starts at once (waiting for a language chunk first left a window
// in which an early click met a half-hydrated page). The server rendered the page in <html lang>.
const lang = document.documentElement.lang;
i18next
  .use(initReactI18next)
  .init({ ...i18nConfig, lng: isLocale(lang) ? lang : "en", resources, initImmediate: false })
  .then(() => {
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
  });
