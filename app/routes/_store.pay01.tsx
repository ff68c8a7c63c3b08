import { data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { OrderSummary, PaySteps } from "../components/pay";
import { useTranslation } from "../i18n/react";
import { MarketError } from "../market/errors";
import { currencyFor } from "../market/money";
import { quoteCheckout } from "../market/orders/checkout.server";
import { requireViewer } from "../utils/auth.server";
import { pageSeo } from "../utils/page.server";
import { requirePay, startPay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** Step 1: the items, amount, VAT 10% and total. A pass from /price/{type} starts its own checkout here. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const pass = z.coerce
    .number()
    .int()
    .positive()
    .safeParse(new URL(request.url).searchParams.get("pass") ?? undefined);
  if (pass.success) {
    throw redirect("/pay01", { headers: { "Set-Cookie": await startPay(context, [{ kind: "pass", id: pass.data }]) } });
  }
  const pay = await requirePay(request, context);
  const currency = currencyFor(context.locale);
  const seo = await pageSeo(request, context, { titleKey: "pay.title" });
  try {
    const quote = await quoteCheckout(context.db, viewer, pay.items, currency, context.locale);
    return { seo, locale: context.locale, quote, error: null };
  } catch (error) {
    if (!(error instanceof MarketError)) throw error;
    return data({ seo, locale: context.locale, quote: null, error: error.code }, { status: error.status });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function Pay01() {
  const { quote, locale, error } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
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
            <Link to="/cart">{t("pay.backToCart")}</Link>
          </p>
        </>
      ) : (
        <>
          <h2>{t("pay.step1")}</h2>
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
          <p className="muted">{t("pay.currencyNote")}</p>
          <p className="pay-actions">
            <Link to="/cart" className="button button-ghost">
              {t("pay.backToCart")}
            </Link>
            <Link to="/pay02" className="button">
              {t("pay.next")}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
