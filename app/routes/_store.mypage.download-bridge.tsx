import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EditorHandOver } from "../components/downloads";
import { useTranslation } from "../i18n/react";
import { editorDownloadLink, isBridgeToken } from "../market/downloads/editor-link";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["download"] };

/**
 * /mypage/download-bridge: hands a download to the editor (a deep link carrying a one-time token) while a
 * 'preparing' dialog shows; the dialog closes itself after 60 s. Without the editor the page says what to do.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  return {
    deepLink: isBridgeToken(token) ? editorDownloadLink(token, context.env.PUBLIC_URL) : null,
    excluded: url.searchParams.get("excluded") === "1",
    seo: await pageSeo(request, context, { titleKey: "download.bridgeTitle" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function DownloadBridge() {
  const { deepLink, excluded } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="account-page">
      <h1>{t("download.bridgeTitle")}</h1>
      {deepLink ? (
        <>
          <EditorHandOver
            deepLink={deepLink}
            excluded={excluded}
            actions={
              <Link to="/mypage/download" className="button button-ghost">
                {t("download.back")}
              </Link>
            }
          />
          <h2>{t("download.notInstalledTitle")}</h2>
          <p>{t("download.notInstalled")}</p>
        </>
      ) : (
        <p className="notice-box" role="alert">
          {t("download.linkExpired")} <Link to="/mypage/download">{t("download.back")}</Link>
        </p>
      )}
    </section>
  );
}
