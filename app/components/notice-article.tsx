import { Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import type { Notice } from "../market/notices.server";

/**
 * A notice as the storefront shows it (/notice/{id}); the console's preview renders the same with its heading one
 * level down (the console page has its own h1).
 */
export function NoticeArticle({ notice, date, heading = "h1" }: { notice: Notice; date: string; heading?: "h1" | "h2" }) {
  const { t } = useTranslation();
  const H = heading;
  return (
    <article className="policy">
      <p className="breadcrumb">
        <Link to="/notice">{t("notice.back")}</Link>
      </p>
      <H>{notice.title}</H>
      <p className="muted">{t("notice.published", { date })}</p>
      {notice.body.split(/\n+/).map((p) => (
        <p key={p}>{p}</p>
      ))}
    </article>
  );
}
