import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { BannerStrip } from "../components/banners";
import { CardGrid } from "../components/content-card";
import { useTranslation } from "../i18n/react";
import { categoryLanding, isSpace } from "../market/catalog/landing.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["category", "home", "item"] };

/** Category landings: /video, /icon, /audio, /package, /benefit, /font. Any other single segment is a 404. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const space = params.category;
  if (!isSpace(space)) throw redirect("/404");
  const [landing, seo] = await Promise.all([
    categoryLanding(context.db, space, context.locale),
    pageSeo(request, context, { titleKey: `meta.${space}`, space }),
  ]);
  return { landing, seo, locale: context.locale };
}

export const headers = cacheHeaders("catalog");

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function CategoryLandingPage() {
  const { landing, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const name = t(`nav.${landing.space}`);
  return (
    <>
      <h1>{name}</h1>
      <BannerStrip banners={landing.banners} label={name} />
      {landing.categories.length ? (
        <section aria-labelledby="cat-categories" className="section">
          <h2 id="cat-categories">{t("category.categories")}</h2>
          <ul className="chips">
            {landing.categories.map((c) => (
              <li key={c.id}>
                <Link to={`/list/${c.space}/${c.id}`}>{c.name}</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="cat-best" className="section">
        <div className="section-head">
          <h2 id="cat-best">{t("category.bestSellers")}</h2>
          <Link to={`/list/${landing.space}/all`}>{t("home.more")}</Link>
        </div>
        {landing.bestSellers.length ? (
          <CardGrid cards={landing.bestSellers} locale={locale} label={t("category.bestSellers")} row />
        ) : (
          <p>{t("category.empty")}</p>
        )}
      </section>
      {landing.genres.length ? (
        <section aria-labelledby="cat-genres" className="section two-col">
          <div>
            <h2 id="cat-genres">{t("home.genres")}</h2>
            <ul className="chips">
              {landing.genres.map((g) => (
                <li key={g.id}>
                  <Link to={`/list/audio/${g.id}`}>{g.name}</Link>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2>{t("home.moods")}</h2>
            <ul className="chips">
              {landing.moods.map((m) => (
                <li key={m.id}>
                  <Link to={`/list/audio/${m.id}`}>{m.name}</Link>
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}
      <section aria-labelledby="cat-new" className="section">
        <div className="section-head">
          <h2 id="cat-new">{t("category.newest")}</h2>
          <Link to={`/list/${landing.space}/all?sort=recent`}>{t("home.more")}</Link>
        </div>
        <CardGrid cards={landing.newest} locale={locale} label={t("category.newest")} row />
      </section>
    </>
  );
}
