import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { KeyOrderDetail } from "../components/key-order";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { orderDetail } from "../market/orders/history.server";
import { positiveId } from "../utils/input.server";
import { cancelKeyOrder, keyOrderView } from "../utils/key-order.server";
import { requireEmbeddedLicense } from "./licence.server";
import { embeddedMeta } from "./route-parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = {
  i18n: ["cart", "certificate", "item", "keyOrder", "licenses", "orders", "passes", "pay", "price", "purchase", "request"],
};

/**
 * /mypage/sw/pay/{id}: one payment of the licence the editor runs. A direct purchase made with this key (no member)
 * is cancelled here, by the same door and rules as a member's /mypage/pay/{id}; a member's or a representative's
 * payment is cancelled on their accounts. Another licence's payment is a 404, the same as one that does not exist.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const licence = await requireEmbeddedLicense(request, context);
  const id = positiveId.safeParse(params.id);
  const locale = context.locale;
  const order = id.success ? await orderDetail(context.db, { licenseId: licence.id }, id.data, locale) : null;
  if (!order) throw data(null, { status: 404 });
  const t = fixedT(locale);
  // Times and amounts are spelled on the server only: Node's ICU and the webview's can differ (utils/dates.ts).
  return { order: keyOrderView(order, locale), title: `${t("orders.detailTitle")} | ${t("embedded.title")}` };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const licence = await requireEmbeddedLicense(request, context);
  const id = positiveId.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  return cancelKeyOrder(request, context, licence.id, id.data);
}

export const meta = embeddedMeta;

export default function EmbeddedPaymentDetail() {
  const { order } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <section className="embedded-pay" aria-labelledby="sw-pay-detail-title">
      <p className="breadcrumb">
        <Link to="/mypage/sw/pay">{t("embedded.backToPay")}</Link>
      </p>
      <h1 id="sw-pay-detail-title">{t("orders.detailTitle")}</h1>
      <KeyOrderDetail
        order={order}
        result={result}
        formAction={`/mypage/sw/pay/${order.id}`}
        place="webview"
        certificateHref={(line) => `/mypage/sw/certificate/${line}`}
      />
    </section>
  );
}

/**
 * Inside the layout: a payment that is not this licence's is "not found" (never its data); without a licence
 * the layout already says why (401/403); anything else is a service error.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 401 || status === 403) return null;
  return (
    <section className="message-page">
      <h1>{status === 404 ? t("notFound.title") : t("errorService.title")}</h1>
      <p role="alert">{status === 404 ? t("notFound.message") : t("errorService.message")}</p>
      <p>
        <Link to="/mypage/sw/pay">{t("embedded.backToPay")}</Link>
      </p>
    </section>
  );
}
