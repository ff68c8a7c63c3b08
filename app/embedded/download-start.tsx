import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EditorHandOver } from "../components/downloads";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { editorDownloadLink, isBridgeToken } from "../market/downloads/editor-link";
import { requireEmbeddedLicense } from "./licence.server";
import { EmbeddedErrorBoundary, embeddedMeta } from "./route-parts";

/**
 * /mypage/sw/download/start: hands a download to the editor (a deep link carrying the one-time token only this
 * licence can redeem) while a 'preparing' dialog shows; the dialog closes itself after 60 s. Says when chosen
 * items were left out (expired), or that nothing was left to download (then there is no token).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireEmbeddedLicense(request, context);
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const origin = context.env.PUBLIC_URL;
  const t = fixedT(context.locale);
  const none = url.searchParams.get("none") === "1";
  return {
    deepLink: !none && isBridgeToken(token) ? editorDownloadLink(token, origin) : null,
    none,
    excluded: url.searchParams.get("excluded") === "1",
    back: url.searchParams.get("from") === "benefit" ? ("benefit" as const) : ("download" as const),
    title: `${t("download.bridgeTitle")} | ${t("embedded.title")}`,
  };
}

export const meta = embeddedMeta;

export default function EmbeddedDownloadStart() {
  const { deepLink, none, excluded, back } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const backLink =
    back === "benefit" ? (
      <Link to="/mypage/sw/benefit" className="button button-ghost">
        {t("embedded.backToBenefit")}
      </Link>
    ) : (
      <Link to="/mypage/sw/download" className="button button-ghost">
        {t("download.back")}
      </Link>
    );
  return (
    <section className="embedded-download" aria-labelledby="sw-start-title">
      <h1 id="sw-start-title">{t("download.bridgeTitle")}</h1>
      {deepLink ? (
        <EditorHandOver deepLink={deepLink} excluded={excluded} actions={backLink} />
      ) : (
        <>
          <p className="notice-box" role="alert">
            {none ? t("download.nothing") : t("download.linkExpired")}
          </p>
          <p className="pay-actions">{backLink}</p>
        </>
      )}
    </section>
  );
}

export const ErrorBoundary = EmbeddedErrorBoundary;
