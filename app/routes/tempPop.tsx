import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CopyCode } from "../components/copy-code";
import { useTranslation } from "../i18n/react";
import { passTitle } from "../i18n/translate";
import { formatMoney, withVat } from "../market/money";
import { currentPromotion } from "../market/orders/coupons.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

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
  const date = new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "long", timeZone: "Asia/Seoul" });
  return (
    <main id="main" className="plain-page promo-page">
      <h1>{promotion.title}</h1>
      {promotion.image ? <img src={promotion.image} alt="" width={560} height={224} /> : null}
      <p className="promo-percent">{t("promo.percentOff", { percent: promotion.percent })}</p>
      <p>{promotion.body}</p>
      <ul className="promo-offers" aria-label={t("promo.offers")}>
        {promotion.offers.map((o) => (
          <li key={`${o.group}-${o.count}`}>
            <span>{passTitle(t, o.group, o.count)}</span>
            <span>
              <del>
                <span className="visually-hidden">{t("promo.regularPrice")} </span>
                {formatMoney(withVat(o.price), o.currency, locale)}
              </del>{" "}
              <strong>
                <span className="visually-hidden">{t("promo.salePrice")} </span>
                {formatMoney(withVat(o.sale), o.currency, locale)}
              </strong>{" "}
              <span className="badge">−{promotion.percent}%</span>
            </span>
          </li>
        ))}
      </ul>
      <CopyCode
        code={promotion.code}
        label={t("promo.code")}
        messages={{ copy: t("promo.copy"), copied: t("promo.copied", { code: promotion.code }), failed: t("promo.copyFailed") }}
      />
      <p className="muted">{t("promo.rules", { date: date.format(new Date(promotion.endsAt)) })}</p>
      <p>
        <Link to="/price" className="button button-ghost">
          {t("promo.use")}
        </Link>
      </p>
    </main>
  );
}
