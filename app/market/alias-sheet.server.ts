import { Readable } from "node:stream";
import type ExcelJS from "exceljs";

/**
 * Reads a licence alias sheet: .xlsx or .csv, first column the product key, second the alias; a first row
 * that does not look like a product key is taken as a header and skipped.
 */
export async function readAliasSheet(fileName: string, data: Buffer): Promise<{ serial: string; alias: string }[]> {
  // Loaded when a sheet arrives: the library takes a third of a second to load, which every start would pay.
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  let sheet: ExcelJS.Worksheet | undefined;
  if (/\.csv$/i.test(fileName)) sheet = await workbook.csv.read(Readable.from(data));
  else if (/\.xlsx$/i.test(fileName)) {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
    sheet = workbook.worksheets[0];
  } else throw new Error("UNSUPPORTED_FILE");
  const rows: { serial: string; alias: string }[] = [];
  sheet?.eachRow({ includeEmpty: false }, (row) => {
    const cell = (i: number) => {
      const v = row.getCell(i).value;
      return v === null || v === undefined ? "" : typeof v === "object" && "text" in v ? String(v.text) : String(v);
    };
    rows.push({ serial: cell(1).trim(), alias: cell(2).trim() });
  });
  if (rows.length && !/^[A-Z0-9]+(-[A-Z0-9]+)+$/i.test(rows[0].serial)) rows.shift();
  return rows.slice(0, 1000);
}
