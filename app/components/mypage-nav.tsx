import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
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

/**
 * The My page menu, on every My page screen (links, so it works without JavaScript and from the keyboard); on a
 * phone one row that scrolls sideways inside itself, so the screen's own content starts on the first screen.
 */
export function MyPageNav({ business }: { business: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = currentSection(pathname);
  const listRef = useRef<HTMLUListElement>(null);
  // On a phone the menu is one row that scrolls inside itself: the current section is brought into view.
  useEffect(() => {
    const list = listRef.current;
    const link = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !link || current === null || list.scrollWidth <= list.clientWidth) return;
    const box = list.getBoundingClientRect();
    const at = link.getBoundingClientRect();
    list.scrollLeft += at.left - box.left - (box.width - at.width) / 2;
  }, [current]);
  return (
    <nav className="mypage-nav" aria-label={t("mypageNav.label")}>
      <ul ref={listRef}>
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
