import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CertificateView } from "../components/certificate-view";
import { useTranslation } from "../i18n/react";
import { certificateOf } from "../market/orders/certificate.server";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["certificate", "item", "licenses", "orders"] };

/** /mypage/certificate/{line}: a printable licence certificate for one purchased item (plain layout). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = Number(params.id);
  const certificate = Number.isInteger(id) && id > 0 ? await certificateOf(context.db, viewer.id, id, context.locale) : null;
  if (!certificate) throw data(null, { status: 404 });
  const paidText = seoulText(certificate.paidAt, context.locale, "date");
  const untilText = seoulText(certificate.usableUntil, context.locale, "until");
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
  const { certificate, paidText, untilText, lineId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <CertificateView
      certificate={certificate}
      paidText={paidText}
      untilText={untilText}
      actions={
        <>
          <a href={`/mypage/certificate-pdf/${lineId}`} className="button button-ghost" download>
            {t("certificate.pdf")}
          </a>
          <Link to="/mypage/pay" className="button button-ghost">
            {t("orders.title")}
          </Link>
        </>
      }
    />
  );
}
