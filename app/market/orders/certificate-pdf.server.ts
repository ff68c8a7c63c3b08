import { createRequire } from "node:module";
import type { Certificate } from "./certificate.server";

const require = createRequire(import.meta.url);
/** An OFL font with Hangul and Latin, shipped with the demo fonts (@expo-google-fonts/gowun-dodum). */
const FONT = require.resolve("@expo-google-fonts/gowun-dodum/400Regular/GowunDodum_400Regular.ttf");

/**
 * The licence certificate as a PDF (pdfkit): the same facts and wording as the printable page, for attaching to a
 * copyright dispute. `t` is the page language's translation function; dates come formatted.
 */
export async function certificatePdf(
  c: Certificate,
  t: (key: string, values?: Record<string, unknown>) => string,
  dates: { paid: string; until: string },
): Promise<Buffer> {
  // pdfkit (with fontkit) is loaded at the first certificate, not at start: about 20 MB a server need not hold.
  const { default: PDFDocument } = await import("pdfkit");
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A4", margin: 56, info: { Title: `${t("certificate.title")} ${c.number}`, Author: t("brand") } });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.registerFont("body", FONT);
    doc.font("body");
    doc.fillColor("#5b21b6").fontSize(12).text(t("brand"), { align: "center" });
    doc.moveDown(0.5).fillColor("#111827").fontSize(24).text(t("certificate.title"), { align: "center" });
    doc
      .moveDown(0.3)
      .fontSize(10)
      .fillColor("#4b5563")
      .text(`${t("certificate.number")}: ${c.number}`, { align: "center" });
    doc
      .moveDown(1.5)
      .fillColor("#111827")
      .fontSize(12)
      .text(t("certificate.statement", { buyer: c.buyer.nickname, item: c.item.title }));
    doc.moveDown(1);
    const rows: [string, string][] = [
      [t("certificate.item"), `${c.item.title} (${c.item.code}, ${t(`item.types.${c.item.type}`)})`],
      [t("certificate.licence"), c.licence ? `${c.licence.serial}${c.licence.alias ? ` (${c.licence.alias})` : ""}` : "—"],
      [t("certificate.buyer"), `${c.buyer.nickname} · ${c.buyer.email}`],
      ...(c.buyer.youtubeChannelId
        ? [[t("certificate.channel"), `https://www.youtube.com/channel/${c.buyer.youtubeChannelId}`] as [string, string]]
        : []),
      [t("certificate.payment"), `${c.orderNo} · ${dates.paid}`],
      [t("certificate.until"), dates.until],
      [t("certificate.status"), c.status === "active" ? t("certificate.valid") : t("certificate.cancelled")],
    ];
    for (const [label, value] of rows) {
      doc.fontSize(10).fillColor("#4b5563").text(label);
      doc.fontSize(12).fillColor("#111827").text(value).moveDown(0.6);
    }
    doc.moveDown(1).fontSize(14).text(t("certificate.termsTitle"));
    doc.moveDown(0.3).fontSize(11).text(t("certificate.terms"));
    doc.end();
  });
}
