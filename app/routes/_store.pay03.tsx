import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { z } from "zod";
import { OrderSummary, PaySteps } from "../components/pay";
import { useTranslation } from "../i18n/react";
import { PAY_METHODS } from "../integrations/payments/gateway";
import { MarketError } from "../market/errors";
import { quoteCheckout } from "../market/orders/checkout.server";
import { usableCoupon } from "../market/orders/coupons.server";
import { currencyOfMethod } from "../market/orders/currency";
import { placeOrder } from "../market/orders/orders.server";
import { requireViewer } from "../utils/auth.server";
import { publicOrigin } from "../utils/origin.server";
import { pageSeo } from "../utils/page.server";
import { requirePay, savePay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** Both agreements are required (spec section 5). */
export const payMethodSchema = z.object({
  method: z.enum(PAY_METHODS, { errorMap: () => ({ message: "pay.chooseMethod" }) }),
  agreeTerms: z.literal("on", { errorMap: () => ({ message: "pay.agreeRequired" }) }),
  agreePaid: z.literal("on", { errorMap: () => ({ message: "pay.agreeRequired" }) }),
});

/** Step 3: the payment method and the agreements; placing the order hands the payer to the gateway. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const pay = await requirePay(request, context);
  if (!pay.data.licenseId) throw redirect("/pay02");
  if (pay.data.orderNo) {
    const placed = await context.db.selectFrom("orders").select("status").where("order_no", "=", pay.data.orderNo).executeTakeFirst();
    if (placed && placed.status !== "pending" && placed.status !== "failed") throw redirect("/payComp");
  }
  const methods = context.payments.methods;
  // The total in each currency a method charges in: KRW for the Korean methods, USD for PayPal.
  const currencies = [...new Set(methods.map(currencyOfMethod))];
  const coupon = pay.data.coupon ? await usableCoupon(context.db, viewer.id, pay.data.coupon).catch(() => null) : null;
  const quotes = await Promise.all(
    currencies.map((c) => quoteCheckout(context.db, viewer, pay.items, c, context.locale, coupon?.percent ?? 0)),
  );
  return {
    methods,
    quotes,
    testMode: context.payments.sandbox ? ("sandbox" as const) : context.payments.testMode ? ("live" as const) : null,
    locale: context.locale,
    seo: await pageSeo(request, context, { titleKey: "pay.title" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const pay = await requirePay(request, context);
  if (!pay.data.licenseId) throw redirect("/pay02");
  const form = Object.fromEntries(await request.formData());
  const values = { method: String(form.method ?? ""), agreeTerms: form.agreeTerms === "on", agreePaid: form.agreePaid === "on" };
  const parsed = payMethodSchema.safeParse(form);
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return data({ errors, values, failure: null }, { status: 400 });
  }
  try {
    const placed = await placeOrder(context.db, context.payments, {
      buyer: viewer,
      items: pay.items,
      // A licence entered by key at /pay02 goes with its key (the key, not the id, admits another's licence).
      license: { licenseId: pay.data.licenseId, serial: pay.data.serial },
      method: parsed.data.method,
      locale: context.locale,
      idempotencyKey: `${viewer.id}:${pay.data.nonce}`,
      origin: publicOrigin(request, context),
      coupon: pay.data.coupon,
    });
    const cookie = await savePay(context, pay, { orderNo: placed.orderNo });
    if (placed.checkout.kind === "redirect") return redirect(placed.checkout.url, { headers: { "Set-Cookie": cookie } });
    return redirect(`/pay/portone?paymentId=${encodeURIComponent(placed.orderNo)}`, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof MarketError && error.code === "ORDER_ALREADY_PLACED") return redirect("/payComp");
    if (error instanceof MarketError) return data({ errors: {}, values, failure: error.code }, { status: error.status });
    throw error;
  }
}

export default function Pay03() {
  const { methods, quotes, testMode, locale } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const errors: Record<string, string> = result?.errors ?? {};
  const v = result?.values;
  const first = quotes[0];
  return (
    <section className="pay-page">
      <h1>{t("pay.title")}</h1>
      <PaySteps current={3} />
      {testMode ? (
        <p className="notice-box test-mode" role="note">
          {testMode === "sandbox" ? t("pay.testMode") : t("pay.testModeLive")}
        </p>
      ) : null}
      {first ? (
        <OrderSummary
          lines={first.lines.map((l) => ({
            ...l,
            key: `${l.kind}-${l.refId}`,
            title: l.kind === "pass" ? (l.passGroup ?? l.title) : l.title,
          }))}
          totals={first.totals}
          currency={first.currency}
          locale={locale}
        />
      ) : null}
      <Form method="post" className="pay-form" aria-describedby={`${id}-failure`}>
        <fieldset aria-invalid={errors.method ? true : undefined} aria-describedby={`${id}-method-error`}>
          <legend>{t("pay.step3")}</legend>
          <div className="pay-methods">
            {methods.map((m) => {
              const quote = quotes.find((q) => q.currency === currencyOfMethod(m));
              return (
                <label key={m} className="pass-option" htmlFor={`${id}-${m}`}>
                  <input id={`${id}-${m}`} type="radio" name="method" value={m} defaultChecked={v?.method === m} />
                  <span className="pass-option-name">{t(`pay.method.${m}`)}</span>
                  {quote ? <small className="muted">{t("pay.chargedIn", { currency: quote.currency })}</small> : null}
                </label>
              );
            })}
          </div>
          <p id={`${id}-method-error`} className="field-error" role="alert">
            {errors.method ? t(errors.method) : ""}
          </p>
        </fieldset>
        <fieldset className="confirmations">
          <legend>{t("pay.agreements")}</legend>
          <label className="check">
            <input type="checkbox" name="agreeTerms" defaultChecked={v?.agreeTerms} aria-invalid={errors.agreeTerms ? true : undefined} />
            <span>
              {t("pay.agreeTerms")}{" "}
              <span className="agree-links">
                <Link to="/policy?type=terms">{t("policy.terms")}</Link> · <Link to="/policy?type=privacy">{t("policy.privacy")}</Link>
              </span>
            </span>
          </label>
          <label className="check">
            <input type="checkbox" name="agreePaid" defaultChecked={v?.agreePaid} aria-invalid={errors.agreePaid ? true : undefined} />
            <span>
              {t("pay.agreePaid")}{" "}
              <span className="agree-links">
                <Link to="/policy?type=paid">{t("policy.paid")}</Link>
              </span>
            </span>
          </label>
          <p className="field-error" role="alert">
            {errors.agreeTerms || errors.agreePaid ? t("pay.agreeRequired") : ""}
          </p>
        </fieldset>
        <p id={`${id}-failure`} className="field-error" role="alert">
          {result?.failure ? t(`pay.error.${result.failure}`) : ""}
        </p>
        <p className="pay-actions">
          <Link to="/pay02" className="button button-ghost">
            {t("pay.back")}
          </Link>
          <button type="submit" className="button" disabled={navigation.state !== "idle"} aria-busy={navigation.state !== "idle"}>
            {t("pay.payNow")}
          </button>
        </p>
      </Form>
    </section>
  );
}
