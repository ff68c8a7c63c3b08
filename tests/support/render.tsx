import { type RenderOptions, render } from "@testing-library/react";
import type { ReactElement } from "react";
import type { Locale } from "../../app/i18n/config";
import { serverBundles } from "../../app/i18n/i18n.server";
import { I18nProvider } from "../../app/i18n/react";

/** Testing Library's render inside the app's string provider, as the entries wrap the app. */
export function renderWithI18n(ui: ReactElement, locale: Locale = "en", options?: RenderOptions) {
  return render(ui, {
    ...options,
    wrapper: ({ children }) => (
      <I18nProvider locale={locale} bundles={serverBundles}>
        {children}
      </I18nProvider>
    ),
  });
}
