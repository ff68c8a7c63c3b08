import { Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";

/** Page links that work without scripts: previous, a window of numbers, next. */
export function Pagination({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  const from = Math.max(1, Math.min(page - 2, pages - 4));
  const numbers = Array.from({ length: Math.min(5, pages) }, (_, i) => from + i);
  return (
    <nav className="pagination" aria-label={t("pagination.label")}>
      <ul>
        <li>
          {page > 1 ? (
            <Link to={href(page - 1)} rel="prev">
              {t("pagination.previous")}
            </Link>
          ) : (
            <span aria-disabled="true">{t("pagination.previous")}</span>
          )}
        </li>
        {numbers.map((n) => (
          <li key={n}>
            <Link to={href(n)} aria-current={n === page ? "page" : undefined} aria-label={t("pagination.page", { page: n })}>
              {n}
            </Link>
          </li>
        ))}
        <li>
          {page < pages ? (
            <Link to={href(page + 1)} rel="next">
              {t("pagination.next")}
            </Link>
          ) : (
            <span aria-disabled="true">{t("pagination.next")}</span>
          )}
        </li>
      </ul>
    </nav>
  );
}
