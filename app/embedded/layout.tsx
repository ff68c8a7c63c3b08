import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { readEmbeddedLicense } from "./licence.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["download", "embedded"] };

/** The editor webview's layout: no site chrome, a tab bar of the embedded pages. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const identity = await readEmbeddedLicense(request, context);
  const t = fixedT(context.locale);
  const title = `${t("embedded.title")} | ${t("brand")}`;
  if (identity.state !== "ok") {
    return data({ state: identity.state, license: null, title }, { status: identity.state === "invalid" ? 403 : 401 });
  }
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (identity.setCookie) headers.append("Set-Cookie", identity.setCookie);
  return data({ state: "ok" as const, license: identity.license, title }, { headers });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export default function EmbeddedLayout() {
  const { state, license } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="embedded">
      <main id="main" tabIndex={-1} className="embedded-main">
        {state === "ok" ? (
          <>
            <nav aria-label={t("embedded.title")}>
              <ul className="tabs">
                <li>
                  <NavLink to="/mypage/sw/home">{t("embedded.home")}</NavLink>
                </li>
                <li>
                  <NavLink to="/mypage/sw/pay">{t("embedded.pay")}</NavLink>
                </li>
                <li>
                  {/* The start page (download/start) keeps the Downloads tab current. */}
                  <NavLink to="/mypage/sw/download">{t("embedded.download")}</NavLink>
                </li>
                <li>
                  <NavLink to="/mypage/sw/benefit">{t("embedded.benefit")}</NavLink>
                </li>
                {license?.ownerKind === "b2bg" ? (
                  <li>
                    <NavLink to="/mypage/sw/request">{t("embedded.request")}</NavLink>
                  </li>
                ) : null}
              </ul>
            </nav>
            <Outlet />
          </>
        ) : (
          <section className="message-page">
            <h1>{t("embedded.title")}</h1>
            <p role="alert">{state === "invalid" ? t("embedded.invalidLicense") : t("embedded.openFromEditor")}</p>
          </section>
        )}
      </main>
    </div>
  );
}
