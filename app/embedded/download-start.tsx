import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { EditorHandOver } from "../components/downloads";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { editorDownloadLink, isBridgeToken } from "../market/downloads/editor-link";
import { readEmbeddedLicense } from "./licence.server";

/**
 * /mypage/sw/download/start: hands a download to the editor (a deep link carrying the one-time token only this
 * licence can redeem) while a 'preparing' dialog shows; the dialog closes itself after 60 s. Says when chosen
 * items were left out (expired), or that nothing was left to download (then there is no token).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const identity = await readEmbeddedLicense(request, context);
  if (identity.state !== "ok") throw data(null, { status: identity.state === "invalid" ? 403 : 401 });
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const origin = context.env.PUBLIC_URL ?? url.origin;
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

// No `headers` export: the layout's (private, no-store; the licence cookie on a first visit) apply as they are.

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const layout = matches.find((m) => m.id === "embedded")?.data as { title?: string } | undefined;
  return [{ title: data?.title ?? layout?.title }, { name: "robots", content: "noindex" }];
};

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

/** Inside the layout: without a licence the layout already says why (401/403); anything else is a service error. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && (error.status === 401 || error.status === 403)) return null;
  return (
    <section className="message-page">
      <h1>{t("errorService.title")}</h1>
      <p role="alert">{t("errorService.message")}</p>
    </section>
  );
}
