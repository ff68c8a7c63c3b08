import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { ChunkLoadWatch } from "./components/chunk-load-watch";
import { NavigationProgress } from "./components/navigation-progress";
import { localeVersion } from "./i18n/i18n.server";
import { languageQueryRedirect } from "./i18n/language.server";
import { I18nScript, useTranslation } from "./i18n/react";
import { useSyncLanguage } from "./i18n/use-locale";
import { closedTarget, isAlwaysOpen, serviceModes } from "./market/service-modes.server";
import styles from "./styles/app.css";
import { restoredAddress } from "./utils/market-query";
import { useNonce } from "./utils/nonce";
import { isTestMode } from "./utils/test-mode.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["common"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const languageRedirect = await languageQueryRedirect(request, { secure: context.env.PUBLIC_URL.startsWith("https://") });
  if (languageRedirect) {
    const headers = new Headers();
    if (languageRedirect.cookie) headers.append("Set-Cookie", languageRedirect.cookie);
    throw redirect(languageRedirect.location, { headers });
  }
  const restored = restoredAddress(new URL(request.url));
  if (restored) throw redirect(restored);
  // Under inspection or error service every page goes to its notice, except the console and the notices themselves.
  const closed = closedTarget(await serviceModes(context.db, context.env.HOME_MODE));
  if (closed && !isAlwaysOpen(new URL(request.url).pathname)) throw redirect(closed, { headers: { "Cache-Control": "no-store" } });
  return data({ locale: context.locale, i18nVersion: localeVersion[context.locale], testMode: isTestMode(context) });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const locale = root?.locale ?? "en";
  return (
    <html lang={locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <I18nScript version={root?.i18nVersion ?? ""} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useSyncLanguage();
  return (
    <>
      <NavigationProgress />
      <ChunkLoadWatch />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="plain-page" id="main">
      <h1>{status === 404 ? t("notFound.title") : t("errorService.title")}</h1>
      <p>{status === 404 ? t("notFound.message") : t("errorService.message")}</p>
      <p>
        <a href="/">{t("errorService.home")}</a>
      </p>
    </main>
  );
}
