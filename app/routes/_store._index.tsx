import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { BannerStrip } from "../components/banners";
import { CardGrid } from "../components/content-card";
import { KeywordChips } from "../components/keyword-chips";
import { useTranslation } from "../i18n/react";
import { homePage } from "../market/catalog/landing.server";
import { currentPromotion } from "../market/orders/coupons.server";
import { defaultStopImage, serviceModes } from "../market/service-modes.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["home", "item", "orders", "promo"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { home: mode, stopNotice } = await serviceModes(context.db, context.env.HOME_MODE);
  const [home, seo, promotion] = await Promise.all([
    homePage(context.db, context.locale, mode),
    pageSeo(request, context, { titleKey: "meta.home" }),
    currentPromotion(context.db, context.locale),
  ]);
  const url = new URL(request.url);
  const requiresAuth = url.searchParams.get("redirect") === "requires-auth";
  const sessionExpired = url.searchParams.get("notice") === "session-expired";
  const redirectTo = url.searchParams.get("redirectTo") ?? "/";
  return {
    home,
    seo,
    locale: context.locale,
    requiresAuth,
    sessionExpired,
    promo: promotion ? { title: promotion.title, percent: promotion.percent } : null,
    // The service-stop picture of this language: the one an operator uploaded, or the store's own (its words are
    // the locale's home.serviceStop.*, drawn by scripts/notice-images.ts).
    stopNotice: stopNotice[context.locale] ?? { image: defaultStopImage(context.locale), alt: null },
    signIn: `/login?redirectTo=${encodeURIComponent(redirectTo)}`,
  };
}

export const headers = cacheHeaders("catalog");

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function Home() {
  const { home, locale, requiresAuth, sessionExpired, signIn, promo, stopNotice } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  // The storefront layout's own data says whether a member is signed in (the page stays shared per header).
  const signedIn = Boolean(useRouteLoaderData<{ viewer: unknown }>("routes/_store")?.viewer);
  const authNotice = requiresAuth ? (
    <p className="notice-box" role="alert">
      {t("auth.requiresAuth")} <Link to={signIn}>{t("header.signIn")}</Link>
    </p>
  ) : sessionExpired ? (
    <p className="notice-box" role="alert">
      {t("pay.sessionExpired")}
    </p>
  ) : null;
  if (home.mode === "service-stop") {
    return (
      <section className="service-stop">
        {authNotice}
        <h1 className="visually-hidden">{t("brand")}</h1>
        <img
          src={stopNotice.image}
          alt={
            stopNotice.alt ??
            t("home.serviceStopAlt", {
              title: t("home.serviceStop.title"),
              line1: t("home.serviceStop.line1"),
              line2: t("home.serviceStop.line2"),
            })
          }
          width={1200}
          height={480}
        />
      </section>
    );
  }
  return (
    <>
      {authNotice}
      <h1 className="visually-hidden">{t("brand")}</h1>
      {promo ? (
        <Link to="/tempPop" className="notice-box promo-banner">
          {t("promo.banner", { percent: promo.percent, title: promo.title })}
        </Link>
      ) : null}
      <BannerStrip banners={home.keyVisuals} label={t("home.keyVisuals")} />
      {signedIn ? null : <LinkEditorBanner />}
      {home.keywords.length ? <KeywordChips id="home-keywords" heading={t("home.popularKeywords")} keywords={home.keywords} /> : null}
      {home.bestSellers.map(({ space, items }) => (
        <section key={space} aria-labelledby={`best-${space}`} className="section">
          <div className="section-head">
            <h2 id={`best-${space}`}>
              {t(`nav.${space}`)} · {t("home.bestSellers")}
            </h2>
            <Link to={`/${space}`}>{t("home.more")}</Link>
          </div>
          <CardGrid cards={items} locale={locale} label={`${t(`nav.${space}`)} ${t("home.bestSellers")}`} row />
        </section>
      ))}
      <section aria-labelledby="home-categories" className="section">
        <h2 id="home-categories">{t("home.popularCategories")}</h2>
        <ul className="chips">
          {home.categories.map((c) => (
            <li key={c.id}>
              <Link to={`/list/${c.space}/${c.id}`}>{c.name}</Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="home-genres" className="section two-col">
        <div>
          <h2 id="home-genres">{t("home.genres")}</h2>
          <ul className="chips">
            {home.genres.map((g) => (
              <li key={g.id}>
                <Link to={`/list/audio/${g.id}`}>{g.name}</Link>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2>{t("home.moods")}</h2>
          <ul className="chips">
            {home.moods.map((m) => (
              <li key={m.id}>
                <Link to={`/list/audio/${m.id}`}>{m.name}</Link>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}

/** Where joining (or signing in) leads: My page's licences, at the form that links a licence key to the account. */
const LINK_EDITOR_NEXT = encodeURIComponent("/mypage/licenses#link-licence");

/**
 * The banner that invites a non-member who bought the editor to link it (spec sections 1 and 2): shown on the home to
 * visitors who are not signed in; joining or signing in leads on to the licence-linking form.
 */
function LinkEditorBanner() {
  const { t } = useTranslation();
  return (
    <aside className="notice-box section link-editor-banner" aria-labelledby="link-editor-title">
      <h2 id="link-editor-title">{t("home.linkEditor.title")}</h2>
      <p>{t("home.linkEditor.text")}</p>
      <p className="pay-actions">
        <Link to={`/join?redirectTo=${LINK_EDITOR_NEXT}`} className="button">
          {t("home.linkEditor.join")}
        </Link>
        <Link to={`/login?redirectTo=${LINK_EDITOR_NEXT}`} className="button button-ghost">
          {t("home.linkEditor.signIn")}
        </Link>
      </p>
    </aside>
  );
}
