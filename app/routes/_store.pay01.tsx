import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { z } from "zod";
import { OverlapNotice } from "../components/overlap-notice";
import { OrderSummary, PaySteps } from "../components/pay";
import { useTranslation } from "../i18n/react";
import { checkoutOverlap } from "../market/downloads/overlap.server";
import { MarketError } from "../market/errors";
import { usableCoupon } from "../market/orders/coupons.server";
import { checkoutCurrency } from "../market/orders/currency";
import { flowCurrencies, flowQuote } from "../market/orders/flows.server";
import { requireViewer } from "../utils/auth.server";
import { readCheckout } from "../utils/checkout.server";
import { chosenIds } from "../utils/input.server";
import { overlapLines } from "../utils/overlap-lines.server";
import { pageSeo } from "../utils/page.server";
import { clearPay, requirePay, savePay, savePayItems, startPay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "cartCare", "item", "orders", "pay", "price", "purchase", "request"] };

/**
 * Step 1: the items, amount, VAT 10% and total (a member's items, the purchase requests a representative pays, or
 * the items a key-only user buys directly). A pass from /price/{type} starts its own checkout here.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const pass = z.coerce
    .number()
    .int()
    .positive()
    .safeParse(new URL(request.url).searchParams.get("pass") ?? undefined);
  if (pass.success) {
    await requireViewer(request, context);
    throw redirect("/pay01", { headers: { "Set-Cookie": await startPay(context, [{ kind: "pass", id: pass.data }]) } });
  }
  const { state, payer } = await readCheckout(request, context);
  const seo = await pageSeo(request, context, { titleKey: "pay.title" });
  const flow = state.flow;
  try {
    // A request is shown in the currency it was quoted in; everything else in the page's.
    const currency = checkoutCurrency(await flowCurrencies(context.db, state, payer), context.locale);
    const { quote, coupon } = await flowQuote(context.db, state, payer, currency, context.locale);
    // What the licence (or the requests' key) already holds, to drop in one action (issue 24, point 3).
    const contentIds = quote.lines.flatMap((l) => (l.kind === "content" ? [l.refId] : []));
    const { chosen, overlaps } = await checkoutOverlap(context.db, state, payer?.id ?? null, contentIds);
    const overlap = overlapLines(overlaps, context.locale, (id) => quote.lines.find((l) => l.kind === "content" && l.refId === id)?.title);
    return {
      seo,
      locale: context.locale,
      quote,
      coupon,
      error: null,
      flow,
      overlap,
      serial: chosen ? (overlaps[0]?.serial ?? null) : null,
    };
  } catch (error) {
    if (!(error instanceof MarketError)) throw error;
    return data(
      { seo, locale: context.locale, quote: null, coupon: null, error: error.code, flow, overlap: [], serial: null },
      { status: error.status },
    );
  }
}

const couponSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("apply"), code: z.string().trim().min(1, "pay.coupon.required").max(40) }),
  z.object({ intent: z.literal("remove") }),
]);

/** Applies or removes a promotion coupon (one per account); the discount shows at once and carries to payment. */
export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const pay = await requirePay(request, context);
  const formData = await request.formData();
  if (formData.get("intent") === "drop") {
    // "Remove these" of the overlap notice: the items leave this checkout (the cart is not touched).
    const drop = new Set(chosenIds(formData, "drop"));
    if (pay.data.flow === "pay_requests") {
      const excluded = [...new Set([...(pay.data.excluded ?? []), ...drop])].slice(0, 100);
      return redirect("/pay01", { headers: { "Set-Cookie": await savePay(context, pay, { excluded }) } });
    }
    const items = pay.items.filter((i) => !(i.kind === "content" && drop.has(i.id)));
    if (!items.length) return redirect("/cart", { headers: { "Set-Cookie": await clearPay(context) } });
    return redirect("/pay01", { headers: { "Set-Cookie": await savePayItems(context, pay, items) } });
  }
  const form = Object.fromEntries(formData);
  const parsed = couponSchema.safeParse(form);
  const code = String(form.code ?? "");
  if (!parsed.success) return data({ error: "pay.coupon.required", code }, { status: 400 });
  if (parsed.data.intent === "remove") {
    return data({ error: null, code: "" }, { headers: { "Set-Cookie": await savePay(context, pay, { coupon: undefined }) } });
  }
  try {
    const coupon = await usableCoupon(context.db, viewer.id, parsed.data.code);
    return data({ error: null, code: coupon.code }, { headers: { "Set-Cookie": await savePay(context, pay, { coupon: coupon.code }) } });
  } catch (error) {
    if (error instanceof MarketError) return data({ error: `pay.coupon.${error.code}`, code }, { status: error.status });
    throw error;
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function Pay01() {
  const { quote, locale, error, coupon, flow, overlap, serial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="pay-page">
      <h1>{t("pay.title")}</h1>
      <PaySteps current={1} />
      {error || !quote ? (
        <>
          <p className="notice-box" role="alert">
            {t(`pay.error.${error ?? "CHECKOUT_EMPTY"}`)}
          </p>
          <p>
            {flow === "pay_requests" ? (
              <Link to="/mypage/purchase">{t("pay.backToRequests")}</Link>
            ) : (
              <Link to="/cart">{t("pay.backToCart")}</Link>
            )}
          </p>
        </>
      ) : (
        <>
          <h2>{t("pay.step1")}</h2>
          <OverlapNotice lines={overlap} serial={serial} intent="drop" field="drop" />
          <OrderSummary
            lines={quote.lines.map((l) => ({
              ...l,
              key: `${l.kind}-${l.refId}`,
              title: l.kind === "pass" ? (l.passGroup ?? l.title) : l.title,
            }))}
            totals={quote.totals}
            currency={quote.currency}
            locale={locale}
          />
          {flow === "direct" ? <p className="notice-box">{t("pay.directLead")}</p> : null}
          {flow === "pay_requests" ? <p className="notice-box">{t("pay.requestsLead")}</p> : null}
          {flow !== "member" ? null : (
            <Form method="post" className="coupon-form" aria-describedby={`${id}-coupon-error`}>
              {coupon ? (
                <p role="status">
                  {t("pay.coupon.applied", { code: coupon.code, percent: coupon.percent })}{" "}
                  <button type="submit" name="intent" value="remove" className="link-button">
                    {t("pay.coupon.remove")}
                  </button>
                </p>
              ) : (
                <>
                  <label htmlFor={`${id}-coupon`}>{t("pay.coupon.label")}</label>
                  <input
                    id={`${id}-coupon`}
                    name="code"
                    maxLength={40}
                    autoComplete="off"
                    defaultValue={result?.error ? result.code : ""}
                    aria-invalid={result?.error ? true : undefined}
                  />
                  <button type="submit" name="intent" value="apply" className="button button-ghost" disabled={navigation.state !== "idle"}>
                    {t("pay.coupon.apply")}
                  </button>
                </>
              )}
              <p id={`${id}-coupon-error`} className="field-error" role="alert">
                {result?.error ? t(result.error) : ""}
              </p>
            </Form>
          )}
          {flow === "pay_requests" ? null : <p className="muted">{t("pay.currencyNote")}</p>}
          <p className="pay-actions">
            <Link to={flow === "pay_requests" ? "/mypage/purchase" : "/cart"} className="button button-ghost">
              {flow === "pay_requests" ? t("pay.backToRequests") : t("pay.backToCart")}
            </Link>
            <Link to={flow === "pay_requests" ? "/pay03" : "/pay02"} className="button">
              {t("pay.next")}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
