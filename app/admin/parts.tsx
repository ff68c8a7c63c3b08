import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "../i18n/react";

/**
 * A console page's failure, inside the console's chrome: 403 (the operator's role does not reach the section),
 * 404, or anything else (nothing was changed). Console routes export it as their ErrorBoundary.
 */
export function AdminError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const has = (key: string) => t(key) !== key;
  const text =
    status === 403
      ? { h: t("admin.core.forbidden.title"), p: t("admin.core.forbidden.message") }
      : status === 404
        ? { h: "404", p: t("admin.core.notFound") }
        : {
            h: has("admin.core.title") ? t("admin.core.title") : t("errorService.title"),
            p: has("admin.core.error") ? t("admin.core.error") : t("errorService.message"),
          };
  return (
    <main className="admin-page admin-error">
      <h1>{text.h}</h1>
      <p role="alert">{text.p}</p>
      <p>
        <Link to="/admin">{has("admin.core.nav.home") ? t("admin.core.nav.home") : "/admin"}</Link>
      </p>
    </main>
  );
}

export { AdminError as ErrorBoundary };

/** Page n of a console list, keeping the other query parameters. */
export function AdminPagination({ page, pages, href }: { page: number; pages: number; href: (n: number) => string }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="admin-pagination" aria-label={t("admin.core.pagination.label")}>
      {page > 1 ? <Link to={href(page - 1)}>{t("admin.core.pagination.previous")}</Link> : null}
      <span>{t("admin.core.pagination.page", { page, pages })}</span>
      {page < pages ? <Link to={href(page + 1)}>{t("admin.core.pagination.next")}</Link> : null}
    </nav>
  );
}
