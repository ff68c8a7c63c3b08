import { createHash } from "node:crypto";
import type { EntryContext } from "@remix-run/node";
import { createInstance, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { i18nOptions, type Locale, supportedLanguages } from "./config";
import { namespacesOfHandles } from "./namespaces";
import { namespaceNames, resources } from "./resources";
import { makeT, type TFunction } from "./translate";

/**
 * The server's i18next: one instance holds every language's namespaces (they are bundled, so it loads nothing);
 * each document render gets its own instance from it (`requestI18n`, sharing the store), as remix-i18next's set-up
 * does, with the language of the request and the namespaces of the page's routes.
 */
const base = createInstance();
base.use(initReactI18next).init({ ...i18nOptions, lng: "en", ns: namespaceNames, resources, initImmediate: false });

/** Each language's strings, hashed: the browser asks /locales/<lng>/<ns>?v=<hash>, cached for a year. */
export const localeVersion = Object.fromEntries(
  supportedLanguages.map((lng) => [lng, createHash("sha256").update(JSON.stringify(resources[lng])).digest("base64url").slice(0, 12)]),
) as Record<Locale, string>;

/** A namespace of a language, as the /locales route serves it (undefined when there is none). */
export function namespaceData(lng: Locale, ns: string): unknown {
  return Object.hasOwn(resources[lng], ns) ? resources[lng][ns as keyof (typeof resources)[Locale]] : undefined;
}

/** What a document render adds to its i18next instance: the namespaces its page declared and those it used. */
export type RequestI18n = i18n & { pageNamespaces: Set<string> };

/** The namespaces the matched routes declare in `handle.i18n` (remix-i18next's convention), root first. */
export function routeNamespaces(context: EntryContext): string[] {
  return namespacesOfHandles(context.staticHandlerContext.matches.map((m) => context.routeModules[m.route.id]?.handle));
}

/** An i18next instance for one document: the request's language, the page's namespaces. */
export function requestI18n(locale: Locale, namespaces: string[]): RequestI18n {
  const instance = base.cloneInstance({ lng: locale, ns: namespaces, initImmediate: false }) as RequestI18n;
  instance.pageNamespaces = new Set(namespaces);
  return instance;
}

const fixed = Object.fromEntries(supportedLanguages.map((lng) => [lng, makeT(base, lng)])) as Record<Locale, TFunction>;

/** A translation function fixed to one language, for loaders, actions, mail and the API. */
export function fixedT(locale: Locale): TFunction {
  return fixed[locale];
}
