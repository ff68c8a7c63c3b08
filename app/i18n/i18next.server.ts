import { createInstance, type i18n, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import { i18nConfig, type Locale } from "./config";
import { resources } from "./resources";

/**
 * One server-side i18next instance per language, created once: the resources are bundled and the
 * language of an instance never changes, so concurrent requests can share it. (remix-i18next's
 * `getFixedT` builds a new instance on every call, which cost milliseconds per page.)
 */
const instances = new Map<Locale, Promise<i18n>>();

export function serverI18n(locale: Locale): Promise<i18n> {
  let instance = instances.get(locale);
  if (!instance) {
    const created = createInstance();
    instance = created
      .use(initReactI18next)
      .init({ ...i18nConfig, lng: locale, resources, initImmediate: false })
      .then(() => created);
    instances.set(locale, instance);
  }
  return instance;
}

/** A translation function fixed to one language, for loaders, actions and the API. */
export async function fixedT(locale: Locale): Promise<TFunction> {
  return (await serverI18n(locale)).getFixedT(locale);
}
