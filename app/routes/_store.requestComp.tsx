import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { QuoteLink } from "../components/quote-link";
import { RequestSteps } from "../components/request-steps";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { requirePay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "cartCare", "pay", "purchase", "request"] };

/** Step 3 of the purchase request: sent; the printable quote (valid 30 days) is one click away. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const pay = await requirePay(request, context);
  if (pay.data.flow !== "request" || !pay.data.requestId || !pay.data.quotePath) throw redirect("/?notice=session-expired");
  const row = await context.db
    .selectFrom("purchase_requests")
    .select(["request_no", "request_email", "total", "currency", "expires_at"])
    .where("id", "=", pay.data.requestId)
    .executeTakeFirst();
  if (!row) throw redirect("/?notice=session-expired");
  // How many lines of the cart the request took out (issue 24, point 5), said once on arrival.
  const left = pay.data.leftCart ?? 0;
  return {
    left,
    request: row,
    quotePath: pay.data.quotePath,
    until: seoulText(row.expires_at, context.locale, "long"),
    locale: context.locale,
    seo: await pageSeo(request, context, { titleKey: "request.doneTitle" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function RequestComplete() {
  const { request, quotePath, until, locale, left } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="pay-page">
      <h1>{t("request.doneTitle")}</h1>
      <RequestSteps current={3} />
      <p className="notice-box" role="status">
        {t("request.done", { email: request.request_email })}
        {left ? ` ${t("cartCare.requested.left", { count: left })}` : null}
      </p>
      <dl className="price-box">
        <dt>{t("request.number")}</dt>
        <dd>{request.request_no}</dd>
        <dt>{t("cart.total")}</dt>
        <dd className="price-total">{formatMoney(request.total, request.currency as "KRW" | "USD", locale)}</dd>
        <dt>{t("request.payableUntil")}</dt>
        <dd>{until}</dd>
      </dl>
      <p className="pay-actions">
        <QuoteLink href={quotePath} className="button" />
        <Link to="/" className="button button-ghost">
          {t("pay.continue")}
        </Link>
      </p>
    </section>
  );
}
