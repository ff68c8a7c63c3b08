import { Link } from "@remix-run/react";
import type { Locale } from "../i18n/config";
import { passTitle } from "../i18n/pass-title";
import { useTranslation } from "../i18n/react";
import { formatMoney, withVat } from "../market/money";
import type { Promotion } from "../market/orders/coupons.server";
import { CopyCode } from "./copy-code";

/**
 * The promo pop-up's content (/tempPop): the promotion's percentage, pass prices crossed out and on sale, and the
 * code to copy. The console's preview renders the same with a draft coupon.
 */
export function PromoView({ promotion, locale, heading = "h1" }: { promotion: Promotion; locale: Locale; heading?: "h1" | "h2" }) {
  const { t } = useTranslation();
  const H = heading;
  const date = new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { dateStyle: "long", timeZone: "Asia/Seoul" });
  return (
    <div className="promo-view">
      <H>{promotion.title}</H>
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
    </div>
  );
}
