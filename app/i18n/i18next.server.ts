import { RemixI18Next } from "remix-i18next/server";
import { fallbackLanguage, i18nConfig, resources, supportedLanguages } from "./config";

/**
 * Server-side i18next. The locale itself is resolved once per request in the load context
 * (`context.locale`, see app/i18n/language.server.ts); this instance gives loaders and `meta`
 * a fixed translation function with `getFixedT(locale)`.
 */
export const i18nServer = new RemixI18Next({
  detection: { supportedLanguages: [...supportedLanguages], fallbackLanguage },
  i18next: { ...i18nConfig, resources },
});
