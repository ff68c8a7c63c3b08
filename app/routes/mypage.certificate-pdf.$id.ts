import type { LoaderFunctionArgs } from "@remix-run/node";
import { fixedT } from "../i18n/i18n.server";
import { certificateOf } from "../market/orders/certificate.server";
import { certificatePdf } from "../market/orders/certificate-pdf.server";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";

/** /mypage/certificate-pdf/{line}: the licence certificate as a PDF, for the buyer only. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = Number(params.id);
  const certificate = Number.isInteger(id) && id > 0 ? await certificateOf(context.db, viewer.id, id, context.locale) : null;
  if (!certificate) return new Response("Not found", { status: 404 });
  const pdf = await certificatePdf(certificate, fixedT(context.locale), {
    paid: seoulText(certificate.paidAt, context.locale, "date"),
    until: seoulText(certificate.usableUntil, context.locale, "until"),
  });
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="certificate-${certificate.number}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
