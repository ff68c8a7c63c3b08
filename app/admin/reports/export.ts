import type { LoaderFunctionArgs } from "@remix-run/node";
import { fixedT } from "../../i18n/i18n.server";
import { REPORT_MAX_DAYS, reportRange } from "../../market/reports.server";
import { formObject } from "../forms.server";
import { actorOf, requireOperator } from "../guard.server";
import { exportReportCsv, toCsv } from "./csv.server";
import { exportQuerySchema } from "./query.server";

/**
 * /admin/reports/export?kind=…&from=…&to=…[&currency=KRW|USD] (finance): one report table as a CSV file. A wrong
 * kind or range answers 400 with the reason in plain text. Each export is a line of the audit log.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const op = await requireOperator(request, context, "reports");
  const t = fixedT(context.locale);
  const plain = (message: string) =>
    new Response(message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
  const parsed = exportQuerySchema.safeParse(formObject(new URL(request.url).searchParams));
  if (!parsed.success) return plain(t("admin.reports.export.bad"));
  const range = reportRange({ from: parsed.data.from, to: parsed.data.to });
  if (!range.ok) return plain(t(`admin.reports.range.problems.${range.problem}`, { max: REPORT_MAX_DAYS }));
  const csv = await exportReportCsv(context.db, actorOf(op, context), {
    kind: parsed.data.kind,
    range: range.range,
    currency: parsed.data.currency ?? "KRW",
    locale: context.locale,
    t,
  });
  return new Response(toCsv(csv.rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csv.filename}"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });
}
