import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["withdraw"] };

/** After cancelling a membership (no login needed: the member is signed out by then). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return { seo: await pageSeo(request, context, { titleKey: "withdraw.completeTitle" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function WithdrawComplete() {
  const { t } = useTranslation();
  return (
    <section className="message-page">
      <h1>{t("withdraw.completeTitle")}</h1>
      <p>{t("withdraw.completeLead")}</p>
      <Link to="/" className="button">
        {t("withdraw.home")}
      </Link>
    </section>
  );
}
