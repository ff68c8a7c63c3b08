import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CardGrid } from "../components/content-card";
import { useTranslation } from "../i18n/react";
import { listPackages } from "../market/catalog/lists.server";
import { formatMoney, withVat } from "../market/money";
import { PRICE_PAGES } from "../market/pass-groups";
import { passPriceGroups, singleUsePrices } from "../market/passes.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["item", "price"] };

/** /price: passes per group, single-use price ranges, packages, notes and the FAQ link. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [groups, singles, packages, seo] = await Promise.all([
    passPriceGroups(context.db, context.locale),
    singleUsePrices(context.db, context.locale),
    listPackages(context.db, context.locale, { offset: 0, limit: 4 }),
    pageSeo(request, context, { titleKey: "price.title", descriptionKey: "price.description" }),
  ]);
  return { groups, singles, packages: packages.list, seo, locale: context.locale };
}

export const headers = cacheHeaders("catalog");

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export const PRICE_NOTICES = ["vat", "period", "business", "deduct", "refund"] as const;

export default function PricingPage() {
  const { groups, singles, packages, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <>
      <h1>{t("price.title")}</h1>
      <section className="section" aria-labelledby="passes-h">
        <h2 id="passes-h">{t("price.passes")}</h2>
        <p className="muted">{t("price.passesLead")}</p>
        <ul className="pass-grid">
          {PRICE_PAGES.map(({ slug, group }) => (
            <li key={slug} className="pass-card">
              <h3>{t(`price.group.${group}`)}</h3>
              <ul>
                {groups[group].map((p) => (
                  <li key={p.id}>
                    <span>{t("price.option", { count: p.contents_count, unit: t(`price.unit.${group}`) })}</span>{" "}
                    <strong>{formatMoney(withVat(p.price), p.currency, locale)}</strong>{" "}
                    <small className="muted">
                      {t("price.perItem", { price: formatMoney(Math.round(withVat(p.price) / p.contents_count), p.currency, locale) })}
                    </small>
                  </li>
                ))}
              </ul>
              <Link to={`/price/${slug}`} className="button">
                {t("price.details", { name: t(`price.group.${group}`) })}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="section" aria-labelledby="single-h">
        <h2 id="single-h">{t("price.singleUse")}</h2>
        <p className="muted">{t("price.singleUseLead")}</p>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t("price.type")}</th>
              <th scope="col">{t("price.priceRange")}</th>
            </tr>
          </thead>
          <tbody>
            {singles.map((s) => (
              <tr key={s.type}>
                <th scope="row">
                  <Link to={`/${s.type}`}>{t(`item.types.${s.type}`)}</Link>
                </th>
                <td>{t("price.range", { min: formatMoney(s.min, s.currency, locale), max: formatMoney(s.max, s.currency, locale) })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="section" aria-labelledby="packages-h">
        <h2 id="packages-h">{t("price.packages")}</h2>
        <p className="muted">{t("price.packagesLead")}</p>
        <CardGrid cards={packages} locale={locale} label={t("price.packages")} />
      </section>
      <section className="section" aria-labelledby="notices-h">
        <h2 id="notices-h">{t("price.notices")}</h2>
        <ul>
          {PRICE_NOTICES.map((n) => (
            <li key={n}>{t(`price.notice.${n}`)}</li>
          ))}
        </ul>
        <p>
          <Link to="/support">{t("price.faq")}</Link>
        </p>
      </section>
    </>
  );
}
