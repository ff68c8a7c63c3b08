import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { type ChangeEvent, useId, useState } from "react";
import { z } from "zod";
import { OverlapNotice } from "../components/overlap-notice";
import { OrderSummary, PaySteps } from "../components/pay";
import { useTranslation } from "../i18n/react";
import { PAY_METHODS } from "../integrations/payments/gateway";
import { checkoutOverlap } from "../market/downloads/overlap.server";
import { MarketError } from "../market/errors";
import { formatMoney } from "../market/money";
import { checkoutCurrency, currencyOfMethod } from "../market/orders/currency";
import { type FlowState, flowCurrencies, flowKey, flowQuote, placeFlowOrder } from "../market/orders/flows.server";
import type { Viewer } from "../market/users/session.server";
import { type Checkout, readCheckout } from "../utils/checkout.server";
import { chosenIds } from "../utils/input.server";
import { publicOrigin, returnOrigin } from "../utils/origin.server";
import { overlapLines } from "../utils/overlap-lines.server";
import { pageSeo } from "../utils/page.server";
import { clearPay, savePay, savePayItems } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "cartCare", "item", "orders", "pay", "policy", "price", "purchase", "request"] };

/** Both agreements are required (spec section 5). */
export const payMethodSchema = z.object({
  method: z.enum(PAY_METHODS, { errorMap: () => ({ message: "pay.chooseMethod" }) }),
  agreeTerms: z.literal("on", { errorMap: () => ({ message: "pay.agreeRequired" }) }),
  agreePaid: z.literal("on", { errorMap: () => ({ message: "pay.agreeRequired" }) }),
});

/** The step this checkout still lacks: a member's licence, a key-only user's key. */
function missingStep({ state }: Checkout) {
  if (state.flow === "member" && !state.licenseId) return "/pay02";
  if (state.flow === "direct" && !state.keyLicenseId) return "/pay-key";
  return null;
}

/** The methods this checkout can be paid with: all, or for purchase requests those of the request's currency. */
async function methodsOf(context: LoaderFunctionArgs["context"], state: FlowState, payer: Viewer | null) {
  const currencies = await flowCurrencies(context.db, state, payer);
  return context.payments.methods.filter((m) => !currencies || currencies.includes(currencyOfMethod(m)));
}

/** Step 3: the payment method and the agreements; placing the order hands the payer to the gateway. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const checkout = await readCheckout(request, context);
  const { pay, state, payer } = checkout;
  const missing = missingStep(checkout);
  if (missing) throw redirect(missing);
  if (pay.data.orderNo) {
    const placed = await context.db.selectFrom("orders").select("status").where("order_no", "=", pay.data.orderNo).executeTakeFirst();
    if (placed && placed.status !== "pending" && placed.status !== "failed") throw redirect("/payComp");
  }
  const methods = await methodsOf(context, state, payer);
  // The checkout's one currency first (the summary, as on step 1), then any other a method charges in (its amount
  // is said beside it): KRW for the Korean methods, USD for PayPal.
  const shown = checkoutCurrency(await flowCurrencies(context.db, state, payer), context.locale);
  const currencies = [...new Set([shown, ...methods.map(currencyOfMethod)])];
  // A checkout that can no longer be paid (a request paid or expired meanwhile) shows why on step 1.
  const quotes = await Promise.all(currencies.map(async (c) => (await flowQuote(context.db, state, payer, c, context.locale)).quote)).catch(
    (error) => {
      if (error instanceof MarketError) throw redirect("/pay01");
      throw error;
    },
  );
  const key = await flowKey(context.db, state);
  // A key-only user's key that already holds some items, or asked for them in a waiting request (issue 24, point 3).
  const first = quotes[0];
  const contentIds = first ? first.lines.flatMap((l) => (l.kind === "content" ? [l.refId] : [])) : [];
  const held = state.flow === "direct" ? await checkoutOverlap(context.db, state, null, contentIds) : { overlaps: [] };
  const overlap = overlapLines(
    held.overlaps,
    context.locale,
    (id) => first?.lines.find((l) => l.kind === "content" && l.refId === id)?.title,
  );
  return {
    overlap,
    methods,
    quotes,
    flow: state.flow,
    key: key ? { serial: key.serial, email: key.email } : null,
    testMode: context.payments.sandbox ? ("sandbox" as const) : context.payments.testMode ? ("live" as const) : null,
    locale: context.locale,
    seo: await pageSeo(request, context, { titleKey: "pay.title" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const checkout = await readCheckout(request, context);
  const { pay, state, payer } = checkout;
  const missing = missingStep(checkout);
  if (missing) throw redirect(missing);
  const formData = await request.formData();
  if (formData.get("intent") === "drop" && state.flow === "direct") {
    // "Remove these": the items the key holds leave this checkout (the cart is not touched).
    const drop = new Set(chosenIds(formData, "drop"));
    const items = pay.items.filter((i) => !(i.kind === "content" && drop.has(i.id)));
    if (!items.length) return redirect("/cart", { headers: { "Set-Cookie": await clearPay(context) } });
    return redirect("/pay03", { headers: { "Set-Cookie": await savePayItems(context, pay, items) } });
  }
  const form = Object.fromEntries(formData);
  const values = { method: String(form.method ?? ""), agreeTerms: form.agreeTerms === "on", agreePaid: form.agreePaid === "on" };
  const parsed = payMethodSchema.safeParse(form);
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return data({ errors, values, failure: null }, { status: 400 });
  }
  try {
    if (!(await methodsOf(context, state, payer)).includes(parsed.data.method))
      return data({ errors: {}, values, failure: "METHOD_NOT_AVAILABLE" }, { status: 400 });
    const placed = await placeFlowOrder(context.db, context.payments, state, payer, {
      method: parsed.data.method,
      locale: context.locale,
      origin: publicOrigin(request, context),
      returnOrigin: returnOrigin(request, context),
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
  const { methods, quotes, testMode, locale, flow, key, overlap } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const errors: Record<string, string> = result?.errors ?? {};
  const v = result?.values;
  // The boxes as the payer leaves them: the agreement error goes once both are ticked (issue 26.8), not at the next
  // submit. The boxes stay uncontrolled (the form works without scripts); this only follows them.
  const [ticked, setTicked] = useState({ agreeTerms: false, agreePaid: false });
  const tick = (e: ChangeEvent<HTMLInputElement>) => {
    const { name, checked } = e.currentTarget;
    setTicked((now) => ({ ...now, [name]: checked }));
  };
  const agreeError = (errors.agreeTerms || errors.agreePaid) && !(ticked.agreeTerms && ticked.agreePaid);
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
      {key ? (
        <p className="notice-box" role="note">
          {t("request.directKey", { serial: key.serial, email: key.email })}
        </p>
      ) : null}
      <OverlapNotice lines={overlap} serial={key?.serial} intent="drop" field="drop" />
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
              const other = quote && first && quote.currency !== first.currency;
              return (
                <label key={m} className="pass-option" htmlFor={`${id}-${m}`}>
                  <input id={`${id}-${m}`} type="radio" name="method" value={m} defaultChecked={v?.method === m} />
                  <span className="pass-option-name">{t(`pay.method.${m}`)}</span>
                  {other ? (
                    <small className="muted">
                      {t("pay.chargedAs", { amount: formatMoney(quote.totals.total, quote.currency, locale) })}
                    </small>
                  ) : null}
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
            <input
              type="checkbox"
              name="agreeTerms"
              defaultChecked={v?.agreeTerms}
              onChange={tick}
              aria-invalid={errors.agreeTerms && !ticked.agreeTerms ? true : undefined}
            />
            <span>
              {t("pay.agreeTerms")}{" "}
              <span className="agree-links">
                <Link to="/policy?type=terms">{t("policy.terms")}</Link> · <Link to="/policy?type=privacy">{t("policy.privacy")}</Link>
              </span>
            </span>
          </label>
          <label className="check">
            <input
              type="checkbox"
              name="agreePaid"
              defaultChecked={v?.agreePaid}
              onChange={tick}
              aria-invalid={errors.agreePaid && !ticked.agreePaid ? true : undefined}
            />
            <span>
              {t("pay.agreePaid")}{" "}
              <span className="agree-links">
                <Link to="/policy?type=paid">{t("policy.paid")}</Link>
              </span>
            </span>
          </label>
          <p className="field-error" role="alert">
            {agreeError ? t("pay.agreeRequired") : ""}
          </p>
        </fieldset>
        <p id={`${id}-failure`} className="field-error" role="alert">
          {result?.failure ? t(`pay.error.${result.failure}`) : ""}
        </p>
        <p className="pay-actions">
          <Link to={flow === "pay_requests" ? "/pay01" : flow === "direct" ? "/pay-key" : "/pay02"} className="button button-ghost">
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
