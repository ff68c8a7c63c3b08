import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { isLocale } from "./i18n/config";
import { I18N_SCRIPT_ID, I18nProvider } from "./i18n/react";

// The document carries its language's strings as JSON (root's I18nScript): hydration starts at once with no
// language chunk to wait for, and the visitor downloads only the language the server rendered.
const lang = document.documentElement.lang;
const locale = isLocale(lang) ? lang : "en";
const bundle = JSON.parse(document.getElementById(I18N_SCRIPT_ID)?.textContent || "{}");

startTransition(() => {
  hydrateRoot(
    document,
    <I18nProvider locale={locale} bundles={{ [locale]: bundle }}>
      <StrictMode>
        <RemixBrowser />
      </StrictMode>
    </I18nProvider>,
  );
});
