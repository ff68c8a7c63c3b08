import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nOptions, isLocale } from "./i18n/config";
import { I18N_SCRIPT_ID, type PageStrings } from "./i18n/react";

/**
 * The address (path and query) this document was rendered for: the browser's record of the document's own
 * navigation (after redirects, untouched by history changes). Null where the browser keeps none.
 */
function renderedAddress(): string | null {
  const entry = typeof performance.getEntriesByType === "function" ? performance.getEntriesByType("navigation")[0] : undefined;
  if (!entry?.name) return null;
  const url = new URL(entry.name);
  return url.pathname + url.search;
}

const currentAddress = () => window.location.pathname + window.location.search;

/** Whether Remix's router is up (it then handles Back and Forward itself). */
const routerReady = () => "__remixRouter" in window;

/**
 * Hydrates only the address the document was rendered for. After a reload, the entries the page had pushed before
 * stay entries of the reloaded document, so Back or Forward before the router is up only changes the address: the
 * router would then start at that address, with the loader data of the other page, and hydration would fail (React
 * #418/#423, then the route renders without its data and the root error boundary shows "Service error"). Such a
 * change loads the address's own document instead, as a Back to another document does.
 */
const rendered = renderedAddress();
if (rendered !== null && rendered !== currentAddress()) {
  window.location.reload();
} else {
  const early = () => {
    if (!routerReady()) window.location.reload();
    else window.removeEventListener("popstate", early);
  };
  window.addEventListener("popstate", early);

  // The document carries its page's namespaces as JSON (root's I18nScript): i18next starts with them, so hydration
  // waits for no request; a later navigation loads other namespaces from /locales, its address versioned by the
  // language's content (cached for a year).
  const strings = JSON.parse(document.getElementById(I18N_SCRIPT_ID)?.textContent || "{}") as Partial<PageStrings>;
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : "en";
  const version = strings.v ?? "";
  i18next
    .use(initReactI18next)
    .use(
      resourcesToBackend((lng: string, ns: string) =>
        fetch(`/locales/${encodeURIComponent(lng)}/${encodeURIComponent(ns)}?v=${lng === strings.lng ? version : ""}`).then((r) => {
          if (!r.ok) throw new Error(`/locales/${lng}/${ns}: ${r.status}`);
          return r.json();
        }),
      ),
    )
    .init({
      ...i18nOptions,
      lng: locale,
      ns: Object.keys(strings.ns ?? {}),
      resources: { [locale]: (strings.ns ?? {}) as Record<string, Record<string, string>> },
      partialBundledLanguages: true,
      initImmediate: false,
    });

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
