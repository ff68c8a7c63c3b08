import type { DB } from "../../db/db.server";
import type { Locale } from "../../i18n/config";
import type { TFunction } from "../../i18n/translate";
import type { Currency } from "../../market/money";
import { type Actor, recordAudit } from "../../market/operators/audit.server";
import { DOWNLOAD_KINDS, downloadsReport, type ReportRange, refundsReport, salesReport, topReport } from "../../market/reports.server";
import type { ExportKind } from "./query.server";

/**
 * The reports' tables as CSV for a spreadsheet: UTF-8 with a byte-order mark (so Excel reads Korean), CRLF line
 * ends, RFC 4180 quoting (a field with a comma, a quote or a line break is quoted, its quotes doubled), and a field
 * with a semicolon is quoted too: a spreadsheet set to a locale whose list separator is `;` (most of Europe) splits
 * the file on semicolons. Amounts are plain numbers in the currency's unit (won; dollars with two decimals), with
 * the currency in the column's name. A text field that a spreadsheet would take for a formula (=, +, -, @, a tab or
 * a carriage return first) gets a leading apostrophe and is quoted.
 */
export type Cell = string | number;

export const BOM = "\uFEFF";

export function csvField(value: Cell): string {
  let text = String(value);
  const formula = typeof value === "string" && /^[=+\-@\t\r]/.test(text);
  if (formula) text = `'${text}`;
  return formula || /[",;\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: Cell[][]): string {
  return `${BOM}${rows.map((r) => r.map(csvField).join(",")).join("\r\n")}\r\n`;
}

/** An amount in minor units as the currency's unit: won as they are, cents as dollars with two decimals. */
export function csvAmount(minor: number, currency: Currency): string | number {
  if (currency === "KRW") return minor;
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

export interface ReportCsv {
  filename: string;
  rows: Cell[][];
}

/** One report table as CSV rows (the first is the header, in the operator's language). */
export async function reportCsv(
  db: DB,
  input: { kind: ExportKind; range: ReportRange; currency: Currency; locale: Locale; t: TFunction },
): Promise<ReportCsv> {
  const { kind, range, currency: c, locale, t } = input;
  const col = (key: string) => t(`admin.reports.${key}`);
  const money = (key: string) => `${col(key)} (${c})`;
  const type = (name: string) => t(`admin.reports.types.${name}`);
  const perCurrency = kind === "sales-days" || kind === "sales-types" || kind === "top-sales" || kind === "refunds-days";
  const filename = `report-${kind}${perCurrency ? `-${c}` : ""}-${range.from}-${range.to}.csv`;
  switch (kind) {
    case "sales-days": {
      const r = await salesReport(db, range);
      return {
        filename,
        rows: [
          [
            col("columns.day"),
            col("sales.columns.orders"),
            col("sales.columns.items"),
            money("sales.columns.gross"),
            col("sales.columns.refundedItems"),
            money("sales.columns.refunded"),
            money("sales.columns.net"),
          ],
          ...r.days.map((d) => [
            d.day,
            d[c].orders,
            d[c].items,
            csvAmount(d[c].gross, c),
            d[c].refundedItems,
            csvAmount(d[c].refunded, c),
            csvAmount(d[c].net, c),
          ]),
        ],
      };
    }
    case "sales-types": {
      const r = await salesReport(db, range);
      return {
        filename,
        rows: [
          [
            col("columns.type"),
            col("sales.columns.items"),
            money("sales.columns.gross"),
            col("sales.columns.refundedItems"),
            money("sales.columns.refunded"),
            money("sales.columns.net"),
          ],
          ...r.types.map((x) => [
            type(x.type),
            x[c].items,
            csvAmount(x[c].gross, c),
            x[c].refundedItems,
            csvAmount(x[c].refunded, c),
            csvAmount(x[c].net, c),
          ]),
        ],
      };
    }
    case "downloads-days": {
      const r = await downloadsReport(db, range);
      return {
        filename,
        rows: [
          [col("columns.day"), ...r.typeList.map(type), col("downloads.columns.total")],
          ...r.days.map((d) => [d.day, ...r.typeList.map((x) => d.byType[x] ?? 0), d.total]),
        ],
      };
    }
    case "downloads-types": {
      const r = await downloadsReport(db, range);
      return {
        filename,
        rows: [
          [col("columns.type"), ...DOWNLOAD_KINDS.map((k) => col(`kinds.${k}`)), col("downloads.columns.total")],
          ...r.types.map((x) => [type(x.type), ...DOWNLOAD_KINDS.map((k) => x.byKind[k] ?? 0), x.total]),
        ],
      };
    }
    case "top-sales": {
      const r = await topReport(db, range, locale);
      return {
        filename,
        rows: [
          [
            col("columns.rank"),
            col("columns.code"),
            col("columns.item"),
            col("columns.type"),
            col("sales.columns.items"),
            money("sales.columns.gross"),
            money("sales.columns.refunded"),
            money("sales.columns.net"),
          ],
          ...r.sales[c].map((x, i) => [
            i + 1,
            x.code,
            x.title,
            type(x.type),
            x.items,
            csvAmount(x.gross, c),
            csvAmount(x.refunded, c),
            csvAmount(x.net, c),
          ]),
        ],
      };
    }
    case "top-downloads": {
      const r = await topReport(db, range, locale);
      return {
        filename,
        rows: [
          [col("columns.rank"), col("columns.code"), col("columns.item"), col("columns.type"), col("downloads.columns.total")],
          ...r.downloads.map((x, i) => [i + 1, x.code, x.title, type(x.type), x.count]),
        ],
      };
    }
    case "refunds-days": {
      const r = await refundsReport(db, range);
      return {
        filename,
        rows: [
          [
            col("columns.day"),
            col("refunds.columns.count"),
            col("refunds.columns.items"),
            money("refunds.columns.amount"),
            money("refunds.columns.deduction"),
            money("refunds.columns.net"),
          ],
          ...r.days.map((d) => [
            d.day,
            d[c].count,
            d[c].items,
            csvAmount(d[c].amount, c),
            csvAmount(d[c].deduction, c),
            csvAmount(d[c].net, c),
          ]),
        ],
      };
    }
  }
}

/**
 * A report export for an operator: the CSV, and a line of the audit log (`report.export`: which table, which days,
 * which currency, the file's name) written before the file leaves.
 */
export async function exportReportCsv(
  db: DB,
  actor: Actor,
  input: { kind: ExportKind; range: ReportRange; currency: Currency; locale: Locale; t: TFunction },
): Promise<ReportCsv> {
  const csv = await reportCsv(db, input);
  await recordAudit(db, actor, {
    action: "report.export",
    targetType: "report",
    targetId: input.kind,
    after: { from: input.range.from, to: input.range.to, currency: input.currency, file: csv.filename, rows: csv.rows.length - 1 },
  });
  return csv;
}
