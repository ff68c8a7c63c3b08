import { type RenderOptions, render } from "@testing-library/react";
import type { ReactElement } from "react";
import { I18nextProvider } from "react-i18next";
import type { Locale } from "../../app/i18n/config";
import { requestI18n } from "../../app/i18n/i18n.server";
import { namespaceNames } from "../../app/i18n/resources";

/** Testing Library's render inside an i18next instance holding every namespace, as the server entry wraps the app. */
export function renderWithI18n(ui: ReactElement, locale: Locale = "en", options?: RenderOptions) {
  const i18n = requestI18n(locale, namespaceNames);
  return render(ui, { ...options, wrapper: ({ children }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider> });
}
