import type { Locale } from "../i18n/config";
import enCatalog from "../i18n/locales/en/admin-catalog.json";
import enCore from "../i18n/locales/en/admin-core.json";
import enMembers from "../i18n/locales/en/admin-members.json";
import enModes from "../i18n/locales/en/admin-modes.json";
import enOrders from "../i18n/locales/en/admin-orders.json";
import enPublishing from "../i18n/locales/en/admin-publishing.json";
import enReports from "../i18n/locales/en/admin-reports.json";
import enSupport from "../i18n/locales/en/admin-support.json";
import koCatalog from "../i18n/locales/ko/admin-catalog.json";
import koCore from "../i18n/locales/ko/admin-core.json";
import koMembers from "../i18n/locales/ko/admin-members.json";
import koModes from "../i18n/locales/ko/admin-modes.json";
import koOrders from "../i18n/locales/ko/admin-orders.json";
import koPublishing from "../i18n/locales/ko/admin-publishing.json";
import koReports from "../i18n/locales/ko/admin-reports.json";
import koSupport from "../i18n/locales/ko/admin-support.json";
import type { Bundle, TFunction } from "../i18n/translate";
import { createT } from "../i18n/translate";

/**
 * The console's strings, one file per section, locales/{ko,en}/admin-<section>.json, reached as `admin.<file>.<key>`. They
 * travel with the console's layout data only, so the storefront's pages never carry them.
 */
const ADMIN: Record<Locale, Bundle> = {
  en: {
    core: enCore,
    support: enSupport,
    catalog: enCatalog,
    publishing: enPublishing,
    orders: enOrders,
    members: enMembers,
    modes: enModes,
    reports: enReports,
  },
  ko: {
    core: koCore,
    support: koSupport,
    catalog: koCatalog,
    publishing: koPublishing,
    orders: koOrders,
    members: koMembers,
    modes: koModes,
    reports: koReports,
  },
};

export function adminStrings(locale: Locale): Bundle {
  return ADMIN[locale];
}

/** The console's translation on the server (actions' messages), over `admin.*` keys. */
export function adminT(locale: Locale): TFunction {
  return createT(locale, { admin: ADMIN[locale] });
}
