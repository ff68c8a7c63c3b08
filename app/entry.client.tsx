import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { isLocale } from "./i18n/config";
import { I18N_SCRIPT_ID, I18nProvider } from "./i18n/react";

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
}
