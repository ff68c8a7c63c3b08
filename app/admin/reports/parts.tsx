import { Form, NavLink } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { type Currency, formatMoney } from "../../market/money";

export type ReportPage = "sales" | "downloads" | "top" | "refunds";

const PAGES: { page: ReportPage; path: string }[] = [
  { page: "sales", path: "/admin/reports" },
  { page: "downloads", path: "/admin/reports/downloads" },
  { page: "top", path: "/admin/reports/top" },
  { page: "refunds", path: "/admin/reports/refunds" },
];

export interface RangeView {
  query: { from: string; to: string };
  problem?: string | null;
  max?: number;
}

/**
 * The top of every report page: its title, the reports' navigation (keeping the range), the range form (a GET
 * form: it works without JavaScript), and what is wrong with the range typed, if anything.
 */
export function ReportsHeader({ page, view }: { page: ReportPage; view: RangeView }) {
  const { t } = useTranslation();
  const search = view.problem ? "" : `?${new URLSearchParams(view.query)}`;
  const days = view.problem ? 0 : Math.round((Date.parse(view.query.to) - Date.parse(view.query.from)) / 86_400_000) + 1;
  const current = PAGES.find((p) => p.page === page) as (typeof PAGES)[number];
  return (
    <>
      <h1>{t(`admin.reports.${page}.title`)}</h1>
      <nav className="report-nav" aria-label={t("admin.reports.nav.label")}>
        <ul>
          {PAGES.map((p) => (
            <li key={p.page}>
              <NavLink to={`${p.path}${search}`} end>
                {t(`admin.reports.${p.page}.title`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <p>{t(`admin.reports.${page}.lead`)}</p>
      <Form method="get" action={current.path} className="admin-filters" aria-label={t("admin.reports.range.label")}>
        <label>
          {t("admin.reports.range.from")}
          <input
            type="date"
            name="from"
            defaultValue={view.query.from}
            aria-invalid={view.problem ? true : undefined}
            aria-describedby={view.problem ? "report-range-problem" : undefined}
          />
        </label>
        <label>
          {t("admin.reports.range.to")}
          <input
            type="date"
            name="to"
            defaultValue={view.query.to}
            aria-invalid={view.problem ? true : undefined}
            aria-describedby={view.problem ? "report-range-problem" : undefined}
          />
        </label>
        <button type="submit">{t("admin.reports.range.apply")}</button>
        <a href={current.path}>{t("admin.reports.range.reset")}</a>
      </Form>
      {view.problem ? (
        <p id="report-range-problem" className="admin-alert" role="alert">
          {t(`admin.reports.range.problems.${view.problem}`, { max: view.max ?? 366 })}
        </p>
      ) : (
        <p className="admin-hint">{t("admin.reports.range.showing", { from: view.query.from, to: view.query.to, days })}</p>
      )}
    </>
  );
}

/** The CSV of one table (a resource route: a plain link, the browser downloads it). */
export function CsvLink({
  kind,
  query,
  currency,
  table,
}: {
  kind: string;
  query: { from: string; to: string };
  currency?: Currency;
  table: string;
}) {
  const { t } = useTranslation();
  const params = new URLSearchParams({ kind, ...query, ...(currency ? { currency } : {}) });
  return (
    <p className="report-csv">
      <a href={`/admin/reports/export?${params}`} download>
        {t("admin.reports.csv", { table })}
      </a>
    </p>
  );
}

/** Money in minor units as the operator's language writes it. */
export function useMoney() {
  const { i18n } = useTranslation();
  const locale = i18n.language === "ko" ? "ko" : "en";
  return (minor: number, currency: Currency) => formatMoney(minor, currency, locale);
}

export function useCount() {
  const { i18n } = useTranslation();
  const f = new Intl.NumberFormat(i18n.language === "ko" ? "ko-KR" : "en-US");
  return (n: number) => f.format(n);
}
