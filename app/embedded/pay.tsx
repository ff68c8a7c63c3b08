import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PaymentHistory } from "../components/payment-history";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { licenceLabel } from "../market/licenses.server";
import { paymentHistoryPage } from "../market/orders/history.server";
import { requireEmbeddedLicense } from "./licence.server";
import { EmbeddedErrorBoundary, embeddedMeta } from "./route-parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "orders", "pagination", "passes"] };

/**
 * /mypage/sw/pay: the payments made for the licence the editor runs, newest first, at most 3 years back.
 * The layout answers 401/403 without a licence; this loader refuses too, so no data leaves without one.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const license = await requireEmbeddedLicense(request, context);
  const locale = context.locale;
  const t = fixedT(locale);
  const history = await paymentHistoryPage(context.db, { licenseId: license.id }, new URL(request.url).searchParams, locale);
  return { history, licence: licenceLabel(license), title: `${t("orders.title")} | ${t("embedded.title")}` };
}

export const meta = embeddedMeta;

export default function EmbeddedPaymentHistory() {
  const { history, licence } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="embedded-pay" aria-labelledby="sw-pay-title">
      <h1 id="sw-pay-title">{t("orders.title")}</h1>
      <p className="muted">{t("embedded.payLead", { licence })}</p>
      <PaymentHistory history={history} detailHref={(id) => `/mypage/sw/pay/${id}`} />
    </section>
  );
}

export const ErrorBoundary = EmbeddedErrorBoundary;
