import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PromoView } from "../components/promo-view";
import { useTranslation } from "../i18n/react";
import { currentPromotion } from "../market/orders/coupons.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["orders", "price", "promo"] };

/** The promo pop-up: the running promotion's coupon, its percentage and sale prices, and copying the code. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [promotion, seo] = await Promise.all([
    currentPromotion(context.db, context.locale),
    pageSeo(request, context, { titleKey: "promo.title" }),
  ]);
  return { promotion, locale: context.locale, seo };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PromoPopup() {
  const { promotion, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (!promotion) {
    return (
      <main id="main" className="plain-page promo-page">
        <h1>{t("promo.title")}</h1>
        <p className="notice-box">{t("promo.ended")}</p>
        <p>
          <Link to="/">{t("errorService.home")}</Link>
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="plain-page promo-page">
      <PromoView promotion={promotion} locale={locale} />
    </main>
  );
}
