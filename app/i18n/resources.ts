import enCatalog from "./locales/en/admin-catalog.json";
import enCore from "./locales/en/admin-core.json";
import enMembers from "./locales/en/admin-members.json";
import enModes from "./locales/en/admin-modes.json";
import enOrders from "./locales/en/admin-orders.json";
import enPublishing from "./locales/en/admin-publishing.json";
import enReports from "./locales/en/admin-reports.json";
import enSupport from "./locales/en/admin-support.json";
import enCommon from "./locales/en/common.json";
import koCatalog from "./locales/ko/admin-catalog.json";
import koCore from "./locales/ko/admin-core.json";
import koMembers from "./locales/ko/admin-members.json";
import koModes from "./locales/ko/admin-modes.json";
import koOrders from "./locales/ko/admin-orders.json";
import koPublishing from "./locales/ko/admin-publishing.json";
import koReports from "./locales/ko/admin-reports.json";
import koSupport from "./locales/ko/admin-support.json";
import koCommon from "./locales/ko/common.json";
import { namespacesOf } from "./namespaces";

/** The store's strings as they are written, one tree per language (tests read keys from it). */
export const storeStrings = { en: enCommon, ko: koCommon } as const;

/**
 * Every language's namespaces (app/i18n/namespaces.ts), for the server's i18next, the /locales route and tests. The
 * browser gets the namespaces of the page it opens inside the document and the others from /locales.
 */
export const resources = {
  en: {
    ...namespacesOf(enCommon),
    admin: {
      core: enCore,
      support: enSupport,
      catalog: enCatalog,
      publishing: enPublishing,
      orders: enOrders,
      members: enMembers,
      modes: enModes,
      reports: enReports,
    },
  },
  ko: {
    ...namespacesOf(koCommon),
    admin: {
      core: koCore,
      support: koSupport,
      catalog: koCatalog,
      publishing: koPublishing,
      orders: koOrders,
      members: koMembers,
      modes: koModes,
      reports: koReports,
    },
  },
};

export const namespaceNames = Object.keys(resources.en);
