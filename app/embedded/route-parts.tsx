import type { MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "../i18n/react";

/*
 * What every page of the webview tree (/mypage/sw) shares: its title and robots meta, and its error boundary.
 * Pages set no `headers`: the layout's (private, no-store; the licence cookie on a first visit) apply as they are.
 */

/** The page's own title (its loader's `title`), else the layout's; never indexed. */
export const embeddedMeta: MetaFunction<() => Promise<{ title?: string }>> = ({ data, matches }) => {
  const layout = matches.find((m) => m.id === "embedded")?.data as { title?: string } | undefined;
  return [{ title: data?.title ?? layout?.title }, { name: "robots", content: "noindex" }];
};

/** Inside the layout: without a licence the layout already says why (401/403); anything else is a service error. */
export function EmbeddedErrorBoundary() {
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
