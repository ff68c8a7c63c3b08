import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { fixedT } from "../../i18n/i18n.server";
import { useTranslation } from "../../i18n/react";
import { DOWNLOAD_KINDS } from "../../market/report-rules";
import { downloadsReport } from "../../market/reports.server";
import reportStyles from "../../styles/admin-reports.css";
import { requireOperator } from "../guard.server";
import { DataTable } from "../parts";
import { ReportChart } from "./chart";
import { barChart, columnChart } from "./charts.server";
import { CsvLink, ReportsHeader, useCount } from "./parts";
import { badRange, readReportQuery } from "./query.server";

export { AdminError as ErrorBoundary } from "../parts";
export const links: LinksFunction = () => [{ rel: "stylesheet", href: reportStyles }];

/** /admin/reports/downloads (finance): downloads granted per Seoul day and per content type. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "reports");
  const read = readReportQuery(request);
  if (!read.ok) return badRange(read);
  const report = await downloadsReport(context.db, read.range);
  const t = fixedT(context.locale);
  const typeName = (type: string) => t(`admin.reports.types.${type}`);
  const charts = {
    days: columnChart(
      report.days.map((d) => d.day),
      report.typeList.map((type) => ({ key: type, values: report.days.map((d) => d.byType[type] ?? 0) })),
      "count",
      context.locale,
      (day, type, n) => `${day} ${typeName(type)}: ${n}`,
    ),
    types: barChart(
      report.types.map((r) => ({ label: typeName(r.type), value: r.total })),
      "count",
      context.locale,
    ),
  };
  return { problem: null, max: 0, query: read.query, report, charts };
}

export default function DownloadsReport() {
  const loaded = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const count = useCount();
  const report = loaded.report;
  const typeName = (type: string) => t(`admin.reports.types.${type}`);
  return (
    <main className="admin-page admin-reports">
      <ReportsHeader page="downloads" view={loaded} />
      {report && "charts" in loaded ? (
        <>
          <p className="report-total">{t("admin.reports.downloads.total", { n: count(report.total) })}</p>
          <h2>{t("admin.reports.downloads.perDay")}</h2>
          <div className="report-pair">
            <ReportChart scene={loaded.charts.days} label={t("admin.reports.downloads.dayChart")} legend={report.typeList.map(typeName)} />
            <DataTable
              className="report-table"
              caption={t("admin.reports.downloads.dayCaption")}
              columns={[t("admin.reports.columns.day"), ...report.typeList.map(typeName), t("admin.reports.downloads.columns.total")]}
              rows={report.days}
              row={(d) => (
                <tr key={d.day}>
                  <th scope="row" className="nowrap">
                    {d.day}
                  </th>
                  {report.typeList.map((type) => (
                    <td className="num" key={type}>
                      {count(d.byType[type] ?? 0)}
                    </td>
                  ))}
                  <td className="num">{count(d.total)}</td>
                </tr>
              )}
            />
          </div>
          <CsvLink kind="downloads-days" query={loaded.query} table={t("admin.reports.downloads.dayCaption")} />
          <h2>{t("admin.reports.downloads.perType")}</h2>
          {report.types.length === 0 ? (
            <p>{t("admin.reports.empty")}</p>
          ) : (
            <>
              <div className="report-pair">
                <ReportChart scene={loaded.charts.types} label={t("admin.reports.downloads.typeChart")} />
                <DataTable
                  className="report-table"
                  caption={t("admin.reports.downloads.typeCaption")}
                  columns={[
                    t("admin.reports.columns.type"),
                    ...DOWNLOAD_KINDS.map((k) => t(`admin.reports.kinds.${k}`)),
                    t("admin.reports.downloads.columns.total"),
                  ]}
                  rows={report.types}
                  row={(r) => (
                    <tr key={r.type}>
                      <th scope="row">{typeName(r.type)}</th>
                      {DOWNLOAD_KINDS.map((k) => (
                        <td className="num" key={k}>
                          {count(r.byKind[k] ?? 0)}
                        </td>
                      ))}
                      <td className="num">{count(r.total)}</td>
                    </tr>
                  )}
                />
              </div>
              <CsvLink kind="downloads-types" query={loaded.query} table={t("admin.reports.downloads.typeCaption")} />
            </>
          )}
        </>
      ) : null}
    </main>
  );
}
