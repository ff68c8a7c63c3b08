import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/react";
import { DOWNLOAD_DIALOG_CLOSE_MS } from "../market/rules";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The editor's URL scheme: the editor registers it on install and redeems the token with its licence headers. */
export const EDITOR_SCHEME = "videoasset-editor";

/**
 * /mypage/download-bridge: hands a download to the editor (a deep link carrying a one-time token) while a
 * 'preparing' dialog shows; the dialog closes itself after 60 s. Without the editor the page says what to do.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const valid = /^[\w-]{20,64}$/.test(token);
  const origin = (context.env.PUBLIC_URL ?? url.origin).replace(/\/$/, "");
  return {
    deepLink: valid ? `${EDITOR_SCHEME}://download?token=${token}&store=${encodeURIComponent(origin)}` : null,
    excluded: url.searchParams.get("excluded") === "1",
    seo: await pageSeo(request, context, { titleKey: "download.bridgeTitle" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function DownloadBridge() {
  const { deepLink, excluded } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const [preparing, setPreparing] = useState(Boolean(deepLink));
  useEffect(() => {
    if (!deepLink) return;
    window.location.href = deepLink;
    const timer = setTimeout(() => setPreparing(false), DOWNLOAD_DIALOG_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [deepLink]);
  return (
    <section className="account-page">
      <h1>{t("download.bridgeTitle")}</h1>
      {excluded ? (
        <p className="notice-box" role="status">
          {t("download.excluded")}
        </p>
      ) : null}
      {deepLink ? (
        <>
          {preparing ? (
            <div className="preparing" role="dialog" aria-modal="false" aria-labelledby="preparing-title">
              <p id="preparing-title">{t("download.preparing")}</p>
              <button type="button" className="button button-ghost" onClick={() => setPreparing(false)}>
                {t("download.close")}
              </button>
            </div>
          ) : null}
          <p>{t("download.bridgeLead")}</p>
          <p className="pay-actions">
            <a href={deepLink} className="button">
              {t("download.openEditor")}
            </a>
            <Link to="/mypage/download" className="button button-ghost">
              {t("download.back")}
            </Link>
          </p>
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
