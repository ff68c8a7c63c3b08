import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { pageSeo } from "../utils/page.server";
import { requirePay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** /pay-cancel: the payment was abandoned at the gateway; the order stays in the session so the payer can try again. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePay(request, context);
  return { seo: await pageSeo(request, context, { titleKey: "pay.cancel.title" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PayCancel() {
  useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="pay-page">
      <h1>{t("pay.cancel.title")}</h1>
      <p className="notice-box" role="alert">
        {t("pay.cancel.message")}
      </p>
      <p className="pay-actions">
        <Link to="/pay03" className="button">
          {t("pay.retry")}
        </Link>
        <Link to="/cart" className="button button-ghost">
          {t("pay.backToCart")}
        </Link>
      </p>
    </section>
  );
}
