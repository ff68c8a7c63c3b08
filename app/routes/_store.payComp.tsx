import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PaySteps } from "../components/pay";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import { downloadTarget, flowOrder } from "../market/orders/flows.server";
import { orderAccessPath } from "../market/orders/order-access.server";
import { orderContentsOf } from "../market/orders/order-names.server";
import { readCheckout } from "../utils/checkout.server";
import { seoulText } from "../utils/dates";
import { orderAccessToken } from "../utils/key-order.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "orders", "pay", "payOutcome"] };

/**
 * Step 4: what became of the payment, truthfully per method and state — paid (items ready: download now or later),
 * waiting for the virtual-account deposit (the account, the deadline; the items come after the deposit), an eCheck
 * clearing, or cancelled. A key-only buyer (direct flow) has no My page: their links are the order's signed link and
 * the editor's path.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pay, state, payer } = await readCheckout(request, context);
  if (!pay.data.orderNo) throw redirect("/pay03");
  const order = await flowOrder(context.db, pay.data.orderNo, state, payer);
  if (!order) throw redirect("/?notice=session-expired");
  if (order.status === "failed") throw redirect("/pay-error");
  if (order.status === "pending" && !order.pending_reason) throw redirect("/pay-cancel");
  const token = state.flow === "direct" ? orderAccessToken(context, order) : null;
  return {
    order,
    contents: await orderContentsOf(context.db, order, context.locale),
    download: payer && state.flow === "member" ? await downloadTarget(context.db, order, payer.id) : null,
    keyOrderPath: token ? orderAccessPath(order.id, token) : null,
    dueText: seoulText(order.vbank_due_at, context.locale, "long"),
    flow: state.flow,
    locale: context.locale,
    seo: await pageSeo(request, context, { titleKey: "pay.doneTitle" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

type Outcome = "complete" | "waiting" | "pending" | "cancelled";

const outcomeOf = (status: string): Outcome =>
  status === "waiting" || status === "expiring"
    ? "waiting"
    : status === "pending"
      ? "pending"
      : status === "cancelled"
        ? "cancelled"
        : "complete";

const KEY_OUTCOME: Record<Outcome, string> = {
  complete: "pay.directDone",
  waiting: "payOutcome.keyWaiting",
  pending: "payOutcome.keyPending",
  cancelled: "payOutcome.keyCancelled",
};

export default function PayComplete() {
  const { order, contents, locale, dueText, flow, download, keyOrderPath } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const state = outcomeOf(order.status);
  return (
    <section className="pay-page">
      <h1>{state === "cancelled" ? t("payOutcome.cancelledHeading") : t(`pay.heading.${state}`)}</h1>
      <PaySteps current={4} />
      <p className="notice-box" role="status">
        {state === "cancelled" ? t("payOutcome.cancelled") : t(`pay.done.${state}`)}
      </p>
      <dl className="price-box">
        <dt>{t("orders.number")}</dt>
        <dd>{order.order_no}</dd>
        <dt>{t("orders.contents")}</dt>
        <dd>{contents}</dd>
        <dt>{t("orders.method")}</dt>
        <dd>{order.method ? t(`pay.method.${order.method}`) : ""}</dd>
        <dt>{t("orders.status")}</dt>
        <dd>{t(`orders.state.${state === "pending" ? "waiting" : order.status === "expiring" ? "waiting" : order.status}`)}</dd>
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
      {state === "waiting" ? <p className="muted">{t("payOutcome.afterDeposit")}</p> : null}
      {state === "pending" ? <p className="muted">{t("pay.echeckNote")}</p> : null}
      {flow === "direct" ? <p className="notice-box">{t(KEY_OUTCOME[state])}</p> : null}
      {flow === "pay_requests" && state === "complete" ? <p className="notice-box">{t("pay.requestsDone")}</p> : null}
      {state === "complete" && download?.kind === "link" ? <p className="notice-box">{t("pay.linkToDownload")}</p> : null}
      {flow === "direct" ? (
        <>
          {state !== "cancelled" ? <p className="muted">{t("payOutcome.editorPath")}</p> : null}
          <p className="pay-actions">
            {keyOrderPath ? (
              <a href={keyOrderPath} className="button" rel="noreferrer">
                {t("payOutcome.viewOrder")}
              </a>
            ) : null}
            <Link to="/" className="button button-ghost">
              {t("pay.continue")}
            </Link>
          </p>
        </>
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
