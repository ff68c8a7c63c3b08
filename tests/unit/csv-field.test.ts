import { describe, expect, it } from "vitest";
import { BOM, csvField, toCsv } from "../../app/admin/reports/csv.server";

/** Splits CSV text on a separator the way a spreadsheet does (RFC 4180 quoting). */
function split(text: string, separator: string): string[][] {
  const rows: string[][] = [[]];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      rows.at(-1)?.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      rows.at(-1)?.push(cell);
      rows.push([]);
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell || (rows.at(-1)?.length ?? 0) > 0) rows.at(-1)?.push(cell);
  if (rows.at(-1)?.length === 0) rows.pop();
  return rows;
}

describe("report CSV cells", () => {
  it("quotes a cell with a semicolon, a comma, a quote or a line break", () => {
    expect(csvField("Rain; thunder")).toBe('"Rain; thunder"');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("plain")).toBe("plain");
    expect(csvField(1234)).toBe("1234");
  });

  it("neutralises and quotes what a spreadsheet would run as a formula", () => {
    expect(csvField("=1+2")).toBe(`"'=1+2"`);
    expect(csvField("+1")).toBe(`"'+1"`);
    expect(csvField('-2;=HYPERLINK("https://evil.test")')).toBe(`"'-2;=HYPERLINK(""https://evil.test"")"`);
    expect(csvField("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvField(-5)).toBe("-5");
  });

  it("reads back cell for cell with either separator a spreadsheet uses", () => {
    const rows = [
      ["Item", "Title"],
      ["C-1", "Rain; thunder, wind"],
      ["C-2", "=cmd|' /C calc'!A0"],
    ];
    const text = toCsv(rows);
    expect(text.startsWith(BOM)).toBe(true);
    const expected = [rows[0], rows[1], ["C-2", "'=cmd|' /C calc'!A0"]];
    expect(split(text.slice(1), ",")).toEqual(expected);
    // A spreadsheet in a `;` locale splits on semicolons: the quoted title stays one cell.
    const semicolon = toCsv(rows)
      .slice(1)
      .replace(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/gm, ";");
    expect(split(semicolon, ";")).toEqual(expected);
  });
});
