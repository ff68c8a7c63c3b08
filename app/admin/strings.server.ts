import type { Locale } from "../i18n/config";
import { fixedT } from "../i18n/i18n.server";
import type { TFunction } from "../i18n/translate";

/**
 * The console's translation on the server (actions' messages), over `admin.<section>.<key>` keys: the `admin`
 * namespace (locales/<lng>/admin-<section>.json, app/i18n/resources.ts), which the console's layout declares for its
 * pages, so the storefront's pages never carry it.
 */
export function adminT(locale: Locale): TFunction {
  return fixedT(locale);
}
