import { data, type HeadersFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { SiteFooter } from "../components/site-footer";
import { SiteHeader } from "../components/site-header";
import { ToTopButton } from "../components/to-top";
import { useTranslation } from "../i18n/react";
import type { loader as rootLoader } from "../root";
import { shopCookies } from "../utils/cookies.server";
import { clearPay, readPay } from "../utils/pay-session.server";
import { useSessionFlag, useSignedOutNotice } from "../utils/session-flag";
import { readHeader } from "../utils/shopper.server";

/** The storefront's chrome: every storefront page sits under this pathless layout. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // Spec section 2: /welcome is also shown when the query join_market equals 1 (a new account arriving from the
  // company's sign-up on any page): that page is greeted on /welcome, which then leads back to it.
  const url = new URL(request.url);
  if (url.searchParams.get("join_market") === "1" && url.pathname !== "/welcome") {
    url.searchParams.delete("join_market");
    throw redirect(`/welcome?join_market=1&redirectTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
  }
  const { viewer, cartCount, staleGt } = await readHeader(request, context);
  const headers = new Headers();
  if (staleGt) headers.append("Set-Cookie", await shopCookies(context.env).gt.serialize("", { maxAge: 0 }));
  // Order data belongs to a session: a visitor without one has none (spec section 4), except a key-only user's
  // purchase request or direct purchase, which needs no login.
  const pay = viewer ? null : await readPay(request, context);
  if (pay && pay.data.flow !== "direct" && pay.data.flow !== "request") headers.append("Set-Cookie", await clearPay(context));
  // A session found stale on the server (gt without gsi) is signed out here and told so on this page.
  return data({ viewer, cartCount, signedOut: Boolean(staleGt) }, { headers });
}

export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const out = new Headers();
  for (const h of [loaderHeaders, actionHeaders]) for (const c of h.getSetCookie()) out.append("Set-Cookie", c);
  return out;
};

export default function StoreLayout() {
  const { viewer, cartCount, signedOut } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const { t } = useTranslation();
  // Read before useSessionFlag's effect, which sets the notice for the reload it starts.
  const staleInBrowser = useSignedOutNotice();
  useSessionFlag(Boolean(viewer));
  return (
    <>
      {root?.testMode ? (
        // In a landmark of its own (issue 18, point 15): a screen reader's landmarks list reaches it.
        <aside className="test-mode-banner" aria-label={t("testModeLabel")}>
          <p>{t("testMode")}</p>
        </aside>
      ) : null}
      <SiteHeader locale={root?.locale ?? "en"} cartCount={cartCount} viewer={viewer} />
      {viewer?.noProduct ? (
        // In a landmark of its own, like the test-mode banner (issue 26, point 8).
        <aside className="no-product" aria-label={t("mypage.noProductLabel")}>
          <p role="note">
            {t("mypage.noProduct")} <Link to="/mypage/licenses">{t("licenses.title")}</Link>
          </p>
        </aside>
      ) : null}
      <main id="main" tabIndex={-1} className="container page">
        {(signedOut || staleInBrowser) && !viewer ? (
          <p className="notice-box signed-out" role="alert">
            {t("auth.signInAgain")} <Link to="/login">{t("header.signIn")}</Link>
          </p>
        ) : null}
        <Outlet />
      </main>
      <SiteFooter />
      <ToTopButton />
    </>
  );
}
