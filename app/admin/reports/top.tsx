import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import type { Currency } from "../../market/money";
import { REPORT_CURRENCIES, TOP_LIMIT } from "../../market/report-rules";
import { topReport } from "../../market/reports.server";
import reportStyles from "../../styles/admin-reports.css";
import { requireOperator } from "../guard.server";
import { DataTable } from "../parts";
import { ReportChart } from "./chart";
import { barChart } from "./charts.server";
import { CsvLink, ReportsHeader, useCount, useMoney } from "./parts";
import { badRange, readReportQuery } from "./query.server";

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: reportStyles }];

/** /admin/reports/top (finance): the items that sold most (each currency apart) and were downloaded most. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "reports");
  const read = readReportQuery(request);
  if (!read.ok) return badRange(read);
  const report = await topReport(context.db, read.range, context.locale);
  const label = (r: { code: string; title: string }) => (r.title ? `${r.title} (${r.code})` : r.code);
  const charts = {
    sales: Object.fromEntries(
      REPORT_CURRENCIES.map((c) => [
        c,
        barChart(
          report.sales[c].map((r) => ({ label: label(r), value: r.net })),
          c,
          context.locale,
        ),
      ]),
    ) as Record<Currency, ReturnType<typeof barChart>>,
    downloads: barChart(
      report.downloads.map((r) => ({ label: label(r), value: r.count })),
      "count",
      context.locale,
    ),
  };
  return { problem: null, max: 0, query: read.query, report, charts };
}

export default function TopItems() {
  const loaded = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const money = useMoney();
  const count = useCount();
  const report = loaded.report;
  return (
    <main className="admin-page admin-reports">
      <ReportsHeader page="top" view={loaded} />
      {report && "charts" in loaded ? (
        <>
          {REPORT_CURRENCIES.map((c) => {
            const currency = t(`admin.reports.currency.${c}`);
            const rows = report.sales[c];
            return (
              <section key={c} aria-labelledby={`top-${c}`}>
                <h2 id={`top-${c}`}>{t("admin.reports.top.bySales", { currency, limit: TOP_LIMIT })}</h2>
                {rows.length === 0 ? (
                  <p>{t("admin.reports.empty")}</p>
                ) : (
                  <>
                    <div className="report-pair">
                      <ReportChart scene={loaded.charts.sales[c]} label={t("admin.reports.top.salesChart", { currency })} />
                      <DataTable
                        className="report-table report-top"
                        caption={t("admin.reports.top.salesCaption", { currency })}
                        columns={[
                          t("admin.reports.columns.rank"),
                          t("admin.reports.columns.item"),
                          t("admin.reports.columns.type"),
                          t("admin.reports.sales.columns.items"),
                          t("admin.reports.sales.columns.gross"),
                          t("admin.reports.sales.columns.refunded"),
                          t("admin.reports.sales.columns.net"),
                        ]}
                        rows={rows}
                        row={(r, i) => (
                          <tr key={r.contentId}>
                            <td className="num">{i + 1}</td>
                            <th scope="row">
                              {r.title} <code>{r.code}</code>
                            </th>
                            <td>{t(`admin.reports.types.${r.type}`)}</td>
                            <td className="num">{count(r.items)}</td>
                            <td className="num">{money(r.gross, c)}</td>
                            <td className="num">{money(r.refunded, c)}</td>
                            <td className="num">{money(r.net, c)}</td>
                          </tr>
                        )}
                      />
                    </div>
                    <CsvLink kind="top-sales" query={loaded.query} currency={c} table={t("admin.reports.top.salesCaption", { currency })} />
                  </>
                )}
              </section>
            );
          })}
          <h2>{t("admin.reports.top.byDownloads", { limit: TOP_LIMIT })}</h2>
          {report.downloads.length === 0 ? (
            <p>{t("admin.reports.empty")}</p>
          ) : (
            <>
              <div className="report-pair">
                <ReportChart scene={loaded.charts.downloads} label={t("admin.reports.top.downloadsChart")} />
                <DataTable
                  className="report-table report-top"
                  caption={t("admin.reports.top.downloadsCaption")}
                  columns={[
                    t("admin.reports.columns.rank"),
                    t("admin.reports.columns.item"),
                    t("admin.reports.columns.type"),
                    t("admin.reports.downloads.columns.total"),
                  ]}
                  rows={report.downloads}
                  row={(r, i) => (
                    <tr key={r.contentId}>
                      <td className="num">{i + 1}</td>
                      <th scope="row">
                        {r.title} <code>{r.code}</code>
                      </th>
                      <td>{t(`admin.reports.types.${r.type}`)}</td>
                      <td className="num">{count(r.count)}</td>
                    </tr>
                  )}
                />
              </div>
              <CsvLink kind="top-downloads" query={loaded.query} table={t("admin.reports.top.downloadsCaption")} />
            </>
          )}
        </>
      ) : null}
    </main>
  );
}
