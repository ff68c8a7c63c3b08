import { createContext, useCallback, useContext, useMemo, useState } from "react";
import { type Locale, loadCommon } from "./config";
import { type Bundle, createT, type TFunction } from "./translate";

type I18nValue = {
  language: Locale;
  bundle: Bundle;
  t: TFunction;
  /** Switches to another language, loading its strings first when this page has not needed them yet. */
  changeLanguage: (locale: Locale) => void;
};

const I18nContext = createContext<I18nValue | null>(null);

/**
 * The page's strings. The server passes every language; the browser starts with the one language the document
 * carries (see `I18nScript`) and loads another only on a client-side change of language.
 */
export function I18nProvider({
  locale,
  bundles,
  translator = createT,
  children,
}: {
  locale: Locale;
  bundles: Partial<Record<Locale, Bundle>>;
  /** How strings are looked up: the server passes its i18next instances, the browser uses `createT`. */
  translator?: (locale: Locale, bundle: Bundle) => TFunction;
  children: React.ReactNode;
}) {
  const [state, setState] = useState({ language: locale, bundles });
  const changeLanguage = useCallback(
    (next: Locale) => {
      if (state.bundles[next]) setState((s) => ({ ...s, language: next }));
      else loadCommon(next).then((bundle) => setState((s) => ({ language: next, bundles: { ...s.bundles, [next]: bundle as Bundle } })));
    },
    [state.bundles],
  );
  const value = useMemo(() => {
    const bundle = state.bundles[state.language] ?? {};
    return { language: state.language, bundle, t: translator(state.language, bundle), changeLanguage };
  }, [state, changeLanguage, translator]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useI18n outside I18nProvider");
  return value;
}

/** `t` and the current language, shaped like react-i18next's hook so components read the same either way. */
export function useTranslation(): { t: TFunction; i18n: { language: Locale } } {
  const { t, language } = useI18n();
  return useMemo(() => ({ t, i18n: { language } }), [t, language]);
}

export const I18N_SCRIPT_ID = "i18n-strings";

/**
 * Each bundle's JSON, written once per bundle object rather than once per render: the server renders every page
 * with the same two bundles (some 40 KB of JSON each).
 */
const jsonOfBundle = new WeakMap<Bundle, string>();
function bundleJson(bundle: Bundle): string {
  let json = jsonOfBundle.get(bundle);
  if (json === undefined) {
    json = JSON.stringify(bundle).replace(/</g, "\\u003c");
    jsonOfBundle.set(bundle, json);
  }
  return json;
}

/**
 * The current language's strings as JSON inside the document, read by the browser entry before hydration: the
 * visitor downloads one language, as data, instead of both languages as JavaScript.
 */
export function I18nScript() {
  const { bundle } = useI18n();
  const json = bundleJson(bundle);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON of our own locale files, '<' escaped, never executed
  return <script id={I18N_SCRIPT_ID} type="application/json" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: json }} />;
}
