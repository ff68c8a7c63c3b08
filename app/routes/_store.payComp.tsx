import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PaySteps } from "../components/pay";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import { downloadTarget, flowOrder } from "../market/orders/flows.server";
import { orderContentsOf } from "../market/orders/order-names.server";
import { readCheckout } from "../utils/checkout.server";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** Step 4: done — paid, or waiting for the virtual-account deposit, or an eCheck clearing. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pay, state, payer } = await readCheckout(request, context);
  if (!pay.data.orderNo) throw redirect("/pay03");
  const order = await flowOrder(context.db, pay.data.orderNo, state, payer);
  if (!order) throw redirect("/?notice=session-expired");
  if (order.status === "failed") throw redirect("/pay-error");
  if (order.status === "pending" && !order.pending_reason) throw redirect("/pay-cancel");
  return {
    order,
    contents: await orderContentsOf(context.db, order, context.locale),
    download: payer && state.flow === "member" ? await downloadTarget(context.db, order, payer.id) : null,
    dueText: seoulText(order.vbank_due_at, context.locale, "long"),
    flow: state.flow,
    locale: context.locale,
    seo: await pageSeo(request, context, { titleKey: "pay.doneTitle" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PayComplete() {
  const { order, contents, locale, dueText, flow, download } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const state = order.status === "waiting" ? "waiting" : order.status === "pending" ? "pending" : "complete";
  return (
    <section className="pay-page">
      <h1>{t(`pay.heading.${state}`)}</h1>
      <PaySteps current={4} />
      <p className="notice-box" role="status">
        {t(`pay.done.${state}`)}
      </p>
      <dl className="price-box">
        <dt>{t("orders.number")}</dt>
        <dd>{order.order_no}</dd>
        <dt>{t("orders.contents")}</dt>
        <dd>{contents}</dd>
        <dt>{t("orders.method")}</dt>
        <dd>{order.method ? t(`pay.method.${order.method}`) : ""}</dd>
        <dt>{t("cart.total")}</dt>
        <dd className="price-total">{formatMoney(order.total, order.currency as "KRW" | "USD", locale)}</dd>
        {state === "waiting" && order.vbank_account ? (
          <>
            <dt>{t("pay.vbankAccount")}</dt>
            <dd>
              {order.vbank_bank} {order.vbank_account}
              {order.vbank_holder ? ` (${order.vbank_holder})` : ""}
            </dd>
            <dt>{t("pay.vbankDue")}</dt>
            <dd>{dueText}</dd>
          </>
        ) : null}
      </dl>
      {state === "pending" ? <p className="muted">{t("pay.echeckNote")}</p> : null}
      {flow === "direct" ? <p className="notice-box">{t("pay.directDone")}</p> : null}
      {flow === "pay_requests" ? <p className="notice-box">{t("pay.requestsDone")}</p> : null}
      {state === "complete" && download?.kind === "link" ? <p className="notice-box">{t("pay.linkToDownload")}</p> : null}
      {flow === "direct" ? (
        <p className="pay-actions">
          <Link to="/" className="button">
            {t("pay.continue")}
          </Link>
        </p>
      ) : (
        <p className="pay-actions">
          {state === "complete" && download ? (
            <Link to={download.path} className="button">
              {t("pay.downloadNow")}
            </Link>
          ) : null}
          <Link to={`/mypage/pay/${order.id}`} className={state === "complete" ? "button button-ghost" : "button"}>
            {t("pay.viewPayment")}
          </Link>
          <Link to="/" className="button button-ghost">
            {state === "complete" ? t("pay.later") : t("pay.continue")}
          </Link>
        </p>
      )}
    </section>
  );
}
