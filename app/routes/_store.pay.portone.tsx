import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { PaySteps } from "../components/pay";
import { useTranslation } from "../i18n/react";
import { resumeCheckout } from "../market/orders/orders.server";
import { requireViewer } from "../utils/auth.server";
import { publicOrigin } from "../utils/origin.server";
import { pageSeo } from "../utils/page.server";
import { requirePay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["pay"] };

/** PortOne's browser SDK (https://developers.portone.io, V2), loaded only on this page. */
const PORTONE_SDK = "https://cdn.portone.io/v2/browser-sdk.js";

type PortOneResponse = { code?: string; message?: string; paymentId?: string };
declare global {
  interface Window {
    PortOne?: { requestPayment: (request: Record<string, unknown>) => Promise<PortOneResponse | undefined> };
  }
}

/**
 * The PortOne payment window: the store's page runs the browser SDK's `requestPayment` with the parameters the
 * server computed for the order. PortOne then returns the payer to /pay/return, where the store asks PortOne what
 * happened (the SDK's own answer is never trusted).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const pay = await requirePay(request, context);
  const paymentId = new URL(request.url).searchParams.get("paymentId");
  if (!pay.data.orderNo || paymentId !== pay.data.orderNo) throw redirect("/pay03");
  const checkout = await resumeCheckout(
    context.db,
    context.payments,
    viewer.id,
    pay.data.orderNo,
    publicOrigin(request, context),
    context.locale,
  );
  if (checkout.kind === "redirect") throw redirect(checkout.url);
  return { sdk: checkout.sdk, paymentId, seo: await pageSeo(request, context, { titleKey: "pay.title" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PortOnePayment() {
  const { sdk, paymentId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (window.PortOne) return setReady(true);
    const script = document.createElement("script");
    script.src = PORTONE_SDK;
    script.async = true;
    script.onload = () => setReady(true);
    script.onerror = () => setFailed(t("pay.errorPage.message"));
    document.head.appendChild(script);
  }, [t]);
  const pay = async () => {
    const response = await window.PortOne?.requestPayment({ ...sdk, forceRedirect: true });
    // In redirect mode the browser leaves; in window mode the answer comes back here and goes the same way.
    const back = new URLSearchParams({ gateway: "portone", paymentId });
    if (response?.code) back.set("code", response.code);
    window.location.assign(`/pay/return?${back}`);
  };
  return (
    <section className="pay-page">
      <h1>{t("pay.title")}</h1>
      <PaySteps current={3} />
      <p>{t("pay.portoneLead")}</p>
      <noscript>
        <p className="notice-box">{t("pay.portoneNeedsJs")}</p>
      </noscript>
      {failed ? (
        <p className="notice-box" role="alert">
          {failed}
        </p>
      ) : null}
      <p className="pay-actions">
        <Link to="/pay03" className="button button-ghost">
          {t("pay.back")}
        </Link>
        <button type="button" className="button" disabled={!ready} onClick={pay}>
          {t("pay.openWindow")}
        </button>
      </p>
    </section>
  );
}
