import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { PaymentHistory } from "../components/payment-history";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { paymentHistoryPage } from "../market/orders/history.server";
import { readEmbeddedLicense } from "./licence.server";

/**
 * /mypage/sw/pay: the payments made for the licence the editor runs, newest first, at most 3 years back.
 * The layout answers 401/403 without a licence; this loader refuses too, so no data leaves without one.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const identity = await readEmbeddedLicense(request, context);
  if (identity.state !== "ok") throw data(null, { status: identity.state === "invalid" ? 403 : 401 });
  const locale = context.locale;
  const t = fixedT(locale);
  const license = identity.license;
  const history = await paymentHistoryPage(context.db, { licenseId: license.id }, new URL(request.url).searchParams, locale);
  return {
    history,
    licence: license.alias ? `${license.alias} · ${license.serial}` : license.serial,
    title: `${t("orders.title")} | ${t("embedded.title")}`,
  };
}

// No `headers` export: the layout's (private, no-store; the licence cookie on a first visit) apply as they are.

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const layout = matches.find((m) => m.id === "embedded")?.data as { title?: string } | undefined;
  return [{ title: data?.title ?? layout?.title }, { name: "robots", content: "noindex" }];
};

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

/** Inside the layout: without a licence the layout already says why (401/403); anything else is a service error. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && (error.status === 401 || error.status === 403)) return null;
  return (
    <section className="message-page">
      <h1>{t("errorService.title")}</h1>
      <p role="alert">{t("errorService.message")}</p>
    </section>
  );
}
