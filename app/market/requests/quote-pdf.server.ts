import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import type { Locale } from "../../i18n/config";
import { formatMoney } from "../money";
import type { Quote } from "./quote.server";

const require = createRequire(import.meta.url);
/** An OFL font with Hangul and Latin, shipped with the demo fonts (the certificate PDF uses it too). */
const FONT = require.resolve("@expo-google-fonts/gowun-dodum/400Regular/GowunDodum_400Regular.ttf");

const INK = "#111827";
const MUTED = "#4b5563";
const LINE = "#d1d5db";

/**
 * The quote as an A4 PDF (pdfkit): the same facts and wording as the printable page. `t` is the page language's
 * translation function; dates come formatted.
 */
export function quotePdf(
  q: Quote,
  t: (key: string, values?: Record<string, unknown>) => string,
  locale: Locale,
  dates: { issued: string; validUntil: string },
): Promise<Buffer> {
  const money = (n: number) => formatMoney(n, q.currency, locale);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 50,
      info: { Title: `${t("estimate.title")} ${q.requestNo}`, Author: t("footer.company") },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.registerFont("body", FONT);
    doc.font("body");
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    const bottom = () => doc.page.height - doc.page.margins.bottom;

    doc.fillColor("#5b21b6").fontSize(11).text(t("brand"), { align: "center" });
    doc.moveDown(0.3).fillColor(INK).fontSize(24).text(t("estimate.title"), { align: "center" });
    doc.moveDown(0.8).fontSize(10).fillColor(MUTED);
    doc.text(`${t("estimate.number")}: ${q.requestNo}`);
    doc.text(`${t("estimate.issued")}: ${dates.issued}`);
    doc.text(`${t("estimate.validUntil")}: ${dates.validUntil}`);
    if (q.state !== "waiting") doc.fillColor(INK).text(t("estimate.state", { state: t(`purchase.state.${q.state}`) }));

    // Supplier and recipient side by side.
    const top = doc.y + 14;
    const half = (width - 20) / 2;
    const block = (x: number, title: string, lines: string[]) => {
      doc.fillColor(INK).fontSize(12).text(title, x, top, { width: half });
      doc.fontSize(9.5).fillColor(INK);
      for (const line of lines) doc.text(line, x, doc.y + 2, { width: half });
      return doc.y;
    };
    const supplierEnd = block(left, t("estimate.supplier"), [
      t("footer.company"),
      t("footer.ceo"),
      t("footer.businessNo"),
      t("footer.address"),
      t("footer.phone"),
      t("footer.email"),
    ]);
    const r = q.recipient;
    const recipientEnd = block(left + half + 20, t("estimate.recipient"), [
      `${t("estimate.organization")}: ${r.organization ?? "—"}`,
      `${t("estimate.requester")}: ${r.requestEmail}`,
      `${t("estimate.licenseKey")}: ${r.serial}${r.alias ? ` (${r.alias})` : ""}`,
    ]);
    doc.y = Math.max(supplierEnd, recipientEnd) + 18;
    doc.x = left;
    doc.fillColor(INK).fontSize(11).text(t("estimate.statement"), left, doc.y, { width });

    // Items: title, code, unit price, quantity, amount.
    const cols = [
      { key: "item", w: width * 0.4, align: "left" as const },
      { key: "code", w: width * 0.16, align: "left" as const },
      { key: "unitPrice", w: width * 0.17, align: "right" as const },
      { key: "quantity", w: width * 0.09, align: "right" as const },
      { key: "lineAmount", w: width * 0.18, align: "right" as const },
    ];
    const row = (cells: string[], opts: { head?: boolean } = {}) => {
      doc.fontSize(opts.head ? 9.5 : 10).fillColor(opts.head ? MUTED : INK);
      const height = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: cols[i].w - 6 }))) + 8;
      if (doc.y + height > bottom()) doc.addPage();
      const y = doc.y;
      let x = left;
      cells.forEach((c, i) => {
        doc.text(c, x + 3, y + 4, { width: cols[i].w - 6, align: cols[i].align });
        x += cols[i].w;
      });
      doc
        .moveTo(left, y + height)
        .lineTo(left + width, y + height)
        .lineWidth(0.5)
        .strokeColor(LINE)
        .stroke();
      doc.y = y + height;
    };
    doc.moveDown(0.8);
    row(
      cols.map((c) => t(`estimate.${c.key}`)),
      { head: true },
    );
    for (const l of q.lines) row([l.title, l.code, money(l.unit), String(l.quantity), money(l.amount)]);

    // Sums, right-aligned.
    doc.moveDown(0.8);
    const sum = (label: string, value: string, big = false) => {
      if (doc.y + 24 > bottom()) doc.addPage();
      const y = doc.y;
      doc
        .fontSize(big ? 13 : 10.5)
        .fillColor(big ? INK : MUTED)
        .text(label, left + width * 0.45, y, { width: width * 0.3, align: "right" });
      doc.fillColor(INK).text(value, left + width * 0.75, y, { width: width * 0.25, align: "right" });
      doc.y = y + (big ? 22 : 17);
    };
    sum(t("estimate.amount"), money(q.amount));
    sum(t("estimate.vat"), money(q.vat));
    sum(t("estimate.total"), money(q.total), true);

    doc.moveDown(1.2);
    doc
      .fontSize(9.5)
      .fillColor(MUTED)
      .text(t("estimate.validNote", { date: dates.validUntil }), left, doc.y, { width });
    doc.end();
  });
}
