import { data } from "@remix-run/node";
import { z } from "zod";
import { type RangeProblem, REPORT_MAX_DAYS, type ReportRange, reportRange } from "../../market/reports.server";
import { formObject } from "../forms.server";

/** The reports' query: a range of Seoul days (YYYY-MM-DD, either end may be left out). */
const day = z.string().trim().max(20).optional();
export const reportQuerySchema = z.object({ from: day, to: day });

export const EXPORT_KINDS = [
  "sales-days",
  "sales-types",
  "downloads-days",
  "downloads-types",
  "top-sales",
  "top-downloads",
  "refunds-days",
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const exportQuerySchema = reportQuerySchema.extend({
  kind: z.enum(EXPORT_KINDS).default("sales-days"),
  currency: z.enum(["KRW", "USD"]).optional(),
});

export type ReportQuery = { from: string; to: string };

/**
 * A report page's range from its query string: the range, or the problem (the page answers 400 with the dates
 * typed kept and says what is wrong).
 */
export function readReportQuery(
  request: Request,
  now = new Date(),
): { ok: true; range: ReportRange; query: ReportQuery } | { ok: false; problem: RangeProblem; query: ReportQuery; max: number } {
  const url = new URL(request.url);
  const raw = formObject(url.searchParams);
  const parsed = reportQuerySchema.safeParse(raw);
  const query = { from: String(raw.from ?? "").slice(0, 20), to: String(raw.to ?? "").slice(0, 20) };
  if (!parsed.success) return { ok: false, problem: "invalid", query, max: REPORT_MAX_DAYS };
  const range = reportRange({ from: parsed.data.from, to: parsed.data.to }, now);
  if (!range.ok) return { ok: false, problem: range.problem, query, max: REPORT_MAX_DAYS };
  return { ok: true, range: range.range, query: { from: range.range.from, to: range.range.to } };
}

/** The answer of a report page whose range is wrong: 400, the form kept, no figures. */
export function badRange(read: { problem: RangeProblem; query: ReportQuery; max: number }) {
  return data({ problem: read.problem, max: read.max, query: read.query, report: null }, { status: 400 });
}
