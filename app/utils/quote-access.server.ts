import type { AppLoadContext } from "@remix-run/node";
import { type Quote, quoteFor } from "../market/requests/quote.server";
import { requireViewer } from "./auth.server";
import { seoulText } from "./dates";
import { positiveId } from "./input.server";

export interface QuoteView {
  quote: Quote;
  /** Issue date and validity spelled in Asia/Seoul in the page's language (see dates.ts). */
  issued: string;
  validUntil: string;
}

/**
 * The quote the printable page and its PDF show (the same rules for both): `?token=` is the request's unguessable
 * link (no login); `?id=` is the signed-in representative's own request (signed out: the sign-in redirect). Null
 * when neither finds a quote: the page answers 404 with the spec's message.
 */
export async function readQuote(request: Request, context: AppLoadContext): Promise<QuoteView | null> {
  const params = new URL(request.url).searchParams;
  const token = params.get("token");
  let quote: Quote | null = null;
  if (token) quote = await quoteFor(context.db, { token }, context.locale);
  else if (params.has("id")) {
    const viewer = await requireViewer(request, context);
    const id = positiveId.safeParse(params.get("id"));
    if (id.success) quote = await quoteFor(context.db, { id: id.data, ownerUserId: viewer.id }, context.locale);
  }
  if (!quote) return null;
  return {
    quote,
    issued: seoulText(quote.issuedAt, context.locale, "date"),
    validUntil: seoulText(quote.validUntil, context.locale),
  };
}
