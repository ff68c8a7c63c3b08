import { useMatches } from "@remix-run/react";
import type { i18n } from "i18next";
import { useMemo } from "react";
import { useTranslation as useI18next } from "react-i18next";
import { isLocale, type Locale } from "./config";
import { namespacesOfHandles } from "./namespaces";
import { makeT, type TFunction } from "./translate";

/** The page's namespaces as remix-i18next reads them: every matched route's `handle.i18n`. */
export function useRouteNamespaces(): string[] {
  const matches = useMatches();
  return useMemo(() => namespacesOfHandles(matches.map((m) => m.handle)), [matches]);
}

/** What a document render's instance carries (app/i18n/i18n.server.ts): the namespaces to send with the page. */
type PageI18n = i18n & { pageNamespaces?: Set<string> };

/**
 * `t` over react-i18next's instance, with the store's whole keys (`t("cart.title")`) and the current language.
 * Components do not name namespaces: the routes do (`handle.i18n`), and the root waits for them on navigation.
 */
export function useTranslation(): { t: TFunction; i18n: { language: Locale } } {
  const { i18n } = useI18next("common", { useSuspense: false });
  const language: Locale = isLocale(i18n.language) ? i18n.language : "en";
  return useMemo(() => ({ t: makeT(i18n, language, (i18n as PageI18n).pageNamespaces), i18n: { language } }), [i18n, language]);
}

export const I18N_SCRIPT_ID = "i18n-strings";

/** The strings sent with the document: its language, the version of that language's files, and its namespaces. */
export type PageStrings = { lng: Locale; v: string; ns: Record<string, unknown> };

/** The script's text as the document carried it, for hydration and every later render of the root. */
let documentStrings: string | null = null;
/** The server's JSON for each language, version and set of namespaces (a few dozen sets, each made once). */
const scripts = new Map<string, string>();

/**
 * The namespaces of this page as JSON inside the document, read by the browser entry before hydration: those the
 * page's routes declare and those its render used (it renders last in <body>, after everything that translates).
 * The browser loads any other namespace from /locales when a navigation needs it.
 */
export function I18nScript({ version }: { version: string }) {
  const { i18n } = useI18next("common", { useSuspense: false });
  let json: string;
  if (typeof document !== "undefined") {
    documentStrings ??= document.getElementById(I18N_SCRIPT_ID)?.textContent ?? "{}";
    json = documentStrings;
  } else {
    const lng = isLocale(i18n.language) ? i18n.language : "en";
    const names = [...((i18n as PageI18n).pageNamespaces ?? [])].sort();
    const key = `${lng} ${version} ${names.join(" ")}`;
    let made = scripts.get(key);
    if (made === undefined) {
      const ns = Object.fromEntries(names.map((n) => [n, i18n.getResourceBundle(lng, n)]).filter(([, data]) => data !== undefined));
      made = JSON.stringify({ lng, v: version, ns } satisfies PageStrings).replace(/</g, "\\u003c");
      scripts.set(key, made);
    }
    json = made;
  }
  // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON of our own locale files, '<' escaped, never executed
  return <script id={I18N_SCRIPT_ID} type="application/json" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: json }} />;
}
