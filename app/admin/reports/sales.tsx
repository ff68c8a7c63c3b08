import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { fixedT } from "../../i18n/i18n.server";
import { useTranslation } from "../../i18n/react";
import type { Currency } from "../../market/money";
import { REPORT_CURRENCIES } from "../../market/report-rules";
import { salesReport } from "../../market/reports.server";
import reportStyles from "../../styles/admin-reports.css";
import { requireOperator } from "../guard.server";
import { DataTable } from "../parts";
import { ReportChart } from "./chart";
import { barChart, lineChart } from "./charts.server";
import { CsvLink, ReportsHeader, useCount, useMoney } from "./parts";
import { badRange, readReportQuery } from "./query.server";

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: reportStyles }];

/** /admin/reports (finance): sales per Seoul day and per content type, KRW and USD apart, VAT excluded, net of refunds. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "reports");
  const read = readReportQuery(request);
  if (!read.ok) return badRange(read);
  const report = await salesReport(context.db, read.range);
  const t = fixedT(context.locale);
  const charts = Object.fromEntries(
    REPORT_CURRENCIES.map((c) => [
      c,
      {
        days: lineChart(
          report.days.map((d) => d.day),
          [
            { key: "net", values: report.days.map((d) => d[c].net) },
            { key: "gross", values: report.days.map((d) => d[c].gross) },
          ],
          c,
          context.locale,
        ),
        types: barChart(
          report.types.map((r) => ({ label: t(`admin.reports.types.${r.type}`), value: r[c].net })),
          c,
          context.locale,
        ),
      },
    ]),
  ) as Record<Currency, { days: ReturnType<typeof lineChart>; types: ReturnType<typeof barChart> }>;
  return { problem: null, max: 0, query: read.query, report, charts };
}

export default function SalesReport() {
  const loaded = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const money = useMoney();
  const count = useCount();
  const report = loaded.report;
  return (
    <main className="admin-page admin-reports">
      <ReportsHeader page="sales" view={loaded} />
      {report && "charts" in loaded
        ? REPORT_CURRENCIES.map((c) => {
            const total = report.totals[c];
            const currency = t(`admin.reports.currency.${c}`);
            return (
              <section key={c} aria-labelledby={`sales-${c}`}>
                <h2 id={`sales-${c}`}>{currency}</h2>
                <p className="report-total">
                  {t("admin.reports.sales.total", {
                    net: money(total.net, c),
                    gross: money(total.gross, c),
                    refunded: money(total.refunded, c),
                    orders: count(total.orders),
                  })}
                </p>
                <h3>{t("admin.reports.sales.perDay")}</h3>
                <div className="report-pair">
                  <ReportChart
                    scene={loaded.charts[c].days}
                    label={t("admin.reports.sales.dayChart", { currency })}
                    legend={[t("admin.reports.sales.columns.net"), t("admin.reports.sales.columns.gross")]}
                  />
                  <DataTable
                    className="report-table"
                    caption={t("admin.reports.sales.dayCaption", { currency })}
                    columns={[
                      t("admin.reports.columns.day"),
                      t("admin.reports.sales.columns.orders"),
                      t("admin.reports.sales.columns.items"),
                      t("admin.reports.sales.columns.gross"),
                      t("admin.reports.sales.columns.refunded"),
                      t("admin.reports.sales.columns.net"),
                    ]}
                    rows={report.days}
                    row={(d) => (
                      <tr key={d.day}>
                        <th scope="row" className="nowrap">
                          {d.day}
                        </th>
                        <td className="num">{count(d[c].orders)}</td>
                        <td className="num">{count(d[c].items)}</td>
                        <td className="num">{money(d[c].gross, c)}</td>
                        <td className="num">{money(d[c].refunded, c)}</td>
                        <td className="num">{money(d[c].net, c)}</td>
                      </tr>
                    )}
                  />
                </div>
                <CsvLink kind="sales-days" query={loaded.query} currency={c} table={t("admin.reports.sales.dayCaption", { currency })} />
                <h3>{t("admin.reports.sales.perType")}</h3>
                {report.types.length === 0 ? (
                  <p>{t("admin.reports.empty")}</p>
                ) : (
                  <div className="report-pair">
                    <ReportChart scene={loaded.charts[c].types} label={t("admin.reports.sales.typeChart", { currency })} />
                    <DataTable
                      className="report-table"
                      caption={t("admin.reports.sales.typeCaption", { currency })}
                      columns={[
                        t("admin.reports.columns.type"),
                        t("admin.reports.sales.columns.items"),
                        t("admin.reports.sales.columns.gross"),
                        t("admin.reports.sales.columns.refunded"),
                        t("admin.reports.sales.columns.net"),
                      ]}
                      rows={report.types}
                      row={(r) => (
                        <tr key={r.type}>
                          <th scope="row">{t(`admin.reports.types.${r.type}`)}</th>
                          <td className="num">{count(r[c].items)}</td>
                          <td className="num">{money(r[c].gross, c)}</td>
                          <td className="num">{money(r[c].refunded, c)}</td>
                          <td className="num">{money(r[c].net, c)}</td>
                        </tr>
                      )}
                    />
                  </div>
                )}
                {report.types.length ? (
                  <CsvLink
                    kind="sales-types"
                    query={loaded.query}
                    currency={c}
                    table={t("admin.reports.sales.typeCaption", { currency })}
                  />
                ) : null}
              </section>
            );
          })
        : null}
    </main>
  );
}
