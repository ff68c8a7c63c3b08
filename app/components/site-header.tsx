import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import type { Locale } from "../i18n/config";
import { useTranslation } from "../i18n/react";
import { clearSessionFlag } from "../utils/session-flag";

export const CATEGORY_NAV = ["video", "icon", "audio", "package", "benefit", "font"] as const;

export interface HeaderProps {
  locale: Locale;
  cartCount: number;
  viewer: { nickname: string; requestCount?: number | null } | null;
}

/** The storefront header: categories, search box, cart count, sign-in state and the ko/en switch. */
export function SiteHeader({ locale, cartCount, viewer }: HeaderProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const switchTo = (lang: Locale) => {
    const params = new URLSearchParams(location.search);
    params.set("language", lang);
    return `${location.pathname}?${params}`;
  };
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t("skipToContent")}
      </a>
      <div className="header-top container">
        <Link to="/" className="brand" prefetch="intent">
          <svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32">
            <rect width="32" height="32" rx="8" fill="currentColor" />
            <path d="M12 9l11 7-11 7z" fill="#fff" />
          </svg>
          <span>{t("brand")}</span>
        </Link>
        <Form method="get" action="/search/all" className="search-box" role="search">
          <label htmlFor="header-search" className="visually-hidden">
            {t("search.label")}
          </label>
          <input id="header-search" type="search" name="keywords" placeholder={t("search.placeholder")} maxLength={100} />
          <button type="submit">{t("search.submit")}</button>
        </Form>
        <nav className="header-tools" aria-label={t("header.myPage")}>
          <Link to="/cart" className="cart-link" aria-label={t("header.cartCount", { count: cartCount })}>
            {t("header.cart")}{" "}
            <span className="badge" data-testid="cart-count">
              {cartCount}
            </span>
          </Link>
          {viewer ? (
            <>
              <Link to="/mypage/home">{t("header.hello", { name: viewer.nickname })}</Link>
              {typeof viewer.requestCount === "number" ? (
                // Loaded only for business representatives (user_type 2): their purchase request management.
                <Link to="/mypage/purchase" className="header-requests">
                  <span data-testid="request-count">{t("header.requests", { count: viewer.requestCount })}</span>
                </Link>
              ) : null}
              <Form method="post" action="/logout" onSubmit={clearSessionFlag}>
                <button type="submit" className="link-button">
                  {t("header.signOut")}
                </button>
              </Form>
            </>
          ) : (
            <Link
              to={
                location.pathname === "/login"
                  ? `/login${location.search}`
                  : `/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`
              }
            >
              {t("header.signIn")}
            </Link>
          )}
          <fieldset className="lang-switch">
            <legend className="visually-hidden">{t("header.language")}</legend>
            <a href={switchTo("ko")} lang="ko" aria-current={locale === "ko" ? "true" : undefined}>
              {t("header.korean")}
            </a>
            <a href={switchTo("en")} lang="en" aria-current={locale === "en" ? "true" : undefined}>
              {t("header.english")}
            </a>
          </fieldset>
        </nav>
      </div>
      <nav className="category-nav" aria-label={t("nav.main")}>
        <ul className="container">
          {CATEGORY_NAV.map((c) => (
            <li key={c}>
              <NavLink to={`/${c}`} prefetch="intent">
                {t(`nav.${c}`)}
              </NavLink>
            </li>
          ))}
          <li className="nav-secondary">
            <NavLink to="/price" prefetch="intent">
              {t("nav.price")}
            </NavLink>
          </li>
          <li>
            <NavLink to="/support" prefetch="intent">
              {t("nav.support")}
            </NavLink>
          </li>
        </ul>
      </nav>
    </header>
  );
}
