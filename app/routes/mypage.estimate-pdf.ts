import type { LoaderFunctionArgs } from "@remix-run/node";
import { fixedT } from "../i18n/i18n.server";
import { quotePdf } from "../market/requests/quote-pdf.server";
import { readQuote } from "../utils/quote-access.server";

/** /mypage/estimate-pdf: the quote as an A4 PDF, by the same rules as the printable page (?token= or the owner's ?id=). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const view = await readQuote(request, context);
  const t = fixedT(context.locale);
  if (!view)
    return new Response(t("quoteNotFound"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "X-Robots-Tag": "noindex" },
    });
  const pdf = await quotePdf(view.quote, t, context.locale, { issued: view.issued, validUntil: view.validUntil });
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="quote-${view.quote.requestNo}.pdf"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
