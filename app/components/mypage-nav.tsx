import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "../i18n/react";

/** My page's sections (spec section 2); purchase requests only for business representative accounts. */
const SECTIONS = [
  { key: "home", to: "/mypage/home", also: ["/mypage"] },
  { key: "member", to: "/mypage/member", also: ["/mypage/withdraw"] },
  { key: "passes", to: "/mypage/passes", also: [] },
  { key: "pay", to: "/mypage/pay", also: [] },
  { key: "download", to: "/mypage/download", also: [] },
  { key: "interest", to: "/mypage/interest", also: [] },
  { key: "licenses", to: "/mypage/licenses", also: [] },
  { key: "qna", to: "/mypage/qna", also: [] },
  { key: "purchase", to: "/mypage/purchase", also: [], business: true },
] as const;

/** The section a My page address belongs to: its own page or one below it (/mypage/pay/12 is under payments). */
export function currentSection(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  for (const s of SECTIONS) {
    if (path === s.to || path.startsWith(`${s.to}/`)) return s.key;
    if ((s.also as readonly string[]).includes(path)) return s.key;
  }
  return null;
}

/** The My page menu, on every My page screen (links, so it works without JavaScript and from the keyboard). */
export function MyPageNav({ business }: { business: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = currentSection(pathname);
  return (
    <nav className="mypage-nav" aria-label={t("mypageNav.label")}>
      <ul>
        {SECTIONS.filter((s) => !("business" in s) || business).map((s) => (
          <li key={s.key}>
            <Link to={s.to} aria-current={current === s.key ? "page" : undefined} prefetch="intent">
              {t(`mypageNav.${s.key}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
