import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useTranslation } from "../i18n/react";
import { certificateOf } from "../market/orders/certificate.server";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** /mypage/certificate/{line}: a printable licence certificate for one purchased item (plain layout). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = Number(params.id);
  const certificate = Number.isInteger(id) && id > 0 ? await certificateOf(context.db, viewer.id, id, context.locale) : null;
  if (!certificate) throw data(null, { status: 404 });
  const paidText = seoulText(certificate.paidAt, context.locale, "date");
  const untilText = seoulText(certificate.usableUntil, context.locale, "date");
  return {
    certificate,
    paidText,
    untilText,
    lineId: id,
    seo: await pageSeo(request, context, { titleKey: "certificate.title" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function CertificatePage() {
  const { certificate: c, paidText, untilText, lineId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const hydrated = useHydrated();
  return (
    <main id="main" className="certificate">
      <header>
        <p className="certificate-brand">{t("brand")}</p>
        <h1>{t("certificate.title")}</h1>
        <p className="muted">
          {t("certificate.number")}: {c.number}
        </p>
      </header>
      <p>{t("certificate.statement", { buyer: c.buyer.nickname, item: c.item.title })}</p>
      <dl className="facts">
        <dt>{t("certificate.item")}</dt>
        <dd>
          {c.item.title} ({c.item.code}, {t(`item.types.${c.item.type}`)})
        </dd>
        <dt>{t("certificate.licence")}</dt>
        <dd>{c.licence ? `${c.licence.serial}${c.licence.alias ? ` (${c.licence.alias})` : ""}` : "—"}</dd>
        <dt>{t("certificate.buyer")}</dt>
        <dd>
          {c.buyer.nickname} · {c.buyer.email}
        </dd>
        {c.buyer.youtubeChannelId ? (
          <>
            <dt>{t("certificate.channel")}</dt>
            <dd>https://www.youtube.com/channel/{c.buyer.youtubeChannelId}</dd>
          </>
        ) : null}
        <dt>{t("certificate.payment")}</dt>
        <dd>
          {c.orderNo} · {paidText}
        </dd>
        <dt>{t("certificate.until")}</dt>
        <dd>{untilText}</dd>
        <dt>{t("certificate.status")}</dt>
        <dd>{c.status === "active" ? t("certificate.valid") : t("certificate.cancelled")}</dd>
      </dl>
      <h2>{t("certificate.termsTitle")}</h2>
      <p>{t("certificate.terms")}</p>
      <p className="no-print pay-actions">
        {hydrated ? (
          <button type="button" className="button" onClick={() => window.print()}>
            {t("certificate.print")}
          </button>
        ) : null}
        <a href={`/mypage/certificate-pdf/${lineId}`} className="button button-ghost" download>
          {t("certificate.pdf")}
        </a>
        <Link to="/mypage/pay" className="button button-ghost">
          {t("orders.title")}
        </Link>
      </p>
    </main>
  );
}
