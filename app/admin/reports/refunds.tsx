import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { fixedT } from "../../i18n/i18n.server";
import { useTranslation } from "../../i18n/react";
import { type Currency, formatMoney } from "../../market/money";
import { REPORT_CURRENCIES } from "../../market/report-rules";
import { refundsReport } from "../../market/reports.server";
import reportStyles from "../../styles/admin-reports.css";
import { requireOperator } from "../guard.server";
import { DataTable } from "../parts";
import { ReportChart } from "./chart";
import { columnChart } from "./charts.server";
import { CsvLink, ReportsHeader, useCount, useMoney } from "./parts";
import { badRange, readReportQuery } from "./query.server";

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: reportStyles }];

/** /admin/reports/refunds (finance): refunds booked per Seoul day, how many and how much, each currency apart. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "reports");
  const read = readReportQuery(request);
  if (!read.ok) return badRange(read);
  const report = await refundsReport(context.db, read.range);
  const t = fixedT(context.locale);
  const charts = Object.fromEntries(
    REPORT_CURRENCIES.map((c) => [
      c,
      columnChart(
        report.days.map((d) => d.day),
        [{ key: "amount", values: report.days.map((d) => d[c].amount) }],
        c,
        context.locale,
        (day, _key, amount) =>
          `${day}: ${t("admin.reports.refunds.tooltip", {
            count: report.days.find((d) => d.day === day)?.[c].count ?? 0,
            amount: formatMoney(amount, c, context.locale),
          })}`,
      ),
    ]),
  ) as Record<Currency, ReturnType<typeof columnChart>>;
  return { problem: null, max: 0, query: read.query, report, charts };
}

export default function RefundsReport() {
  const loaded = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const money = useMoney();
  const count = useCount();
  const report = loaded.report;
  return (
    <main className="admin-page admin-reports">
      <ReportsHeader page="refunds" view={loaded} />
      {report && "charts" in loaded
        ? REPORT_CURRENCIES.map((c) => {
            const currency = t(`admin.reports.currency.${c}`);
            const total = report.totals[c];
            return (
              <section key={c} aria-labelledby={`refunds-${c}`}>
                <h2 id={`refunds-${c}`}>{currency}</h2>
                <p className="report-total">
                  {t("admin.reports.refunds.total", {
                    n: count(total.count),
                    amount: money(total.amount, c),
                    deduction: money(total.deduction, c),
                    net: money(total.net, c),
                  })}
                </p>
                <div className="report-pair">
                  <ReportChart scene={loaded.charts[c]} label={t("admin.reports.refunds.chart", { currency })} />
                  <DataTable
                    className="report-table"
                    caption={t("admin.reports.refunds.caption", { currency })}
                    columns={[
                      t("admin.reports.columns.day"),
                      t("admin.reports.refunds.columns.count"),
                      t("admin.reports.refunds.columns.items"),
                      t("admin.reports.refunds.columns.amount"),
                      t("admin.reports.refunds.columns.deduction"),
                      t("admin.reports.refunds.columns.net"),
                    ]}
                    rows={report.days}
                    row={(d) => (
                      <tr key={d.day}>
                        <th scope="row" className="nowrap">
                          {d.day}
                        </th>
                        <td className="num">{count(d[c].count)}</td>
                        <td className="num">{count(d[c].items)}</td>
                        <td className="num">{money(d[c].amount, c)}</td>
                        <td className="num">{money(d[c].deduction, c)}</td>
                        <td className="num">{money(d[c].net, c)}</td>
                      </tr>
                    )}
                  />
                </div>
                <CsvLink kind="refunds-days" query={loaded.query} currency={c} table={t("admin.reports.refunds.caption", { currency })} />
              </section>
            );
          })
        : null}
    </main>
  );
}
