import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { pageSeo } from "../utils/page.server";
import { requirePay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** /pay-error: the payment was refused or failed; the order stays in the session so the payer can try again. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePay(request, context);
  return { seo: await pageSeo(request, context, { titleKey: "pay.errorPage.title" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PayError() {
  useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="pay-page">
      <h1>{t("pay.errorPage.title")}</h1>
      <p className="notice-box" role="alert">
        {t("pay.errorPage.message")}
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
