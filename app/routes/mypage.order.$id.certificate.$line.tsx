import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { CertificateView } from "../components/certificate-view";
import { useTranslation } from "../i18n/react";
import { keyCertificateOf } from "../market/orders/certificate.server";
import { seoulText } from "../utils/dates";
import { positiveId } from "../utils/input.server";
import { requireOrderAccess } from "../utils/key-order.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["certificate", "item", "keyOrder", "licenses", "orders", "pay", "purchase", "request"] };

const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };

/**
 * /mypage/order/{id}/certificate/{line}?access=<token>: the licence certificate of one item of the order the mail's
 * signed link opens (plain layout, printable); the token grants that order only.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId.safeParse(params.id);
  const line = positiveId.safeParse(params.line);
  if (!id.success || !line.success) throw data(null, { status: 404, headers: PRIVATE });
  const token = new URL(request.url).searchParams.get("access");
  const access = requireOrderAccess(context, token, id.data);
  const certificate = await keyCertificateOf(context.db, access.licenseId, line.data, context.locale, id.data);
  if (!certificate) throw data(null, { status: 404, headers: PRIVATE });
  return data(
    {
      certificate,
      paidText: seoulText(certificate.paidAt, context.locale, "date"),
      untilText: seoulText(certificate.usableUntil, context.locale, "until"),
      back: `/mypage/order/${id.data}?access=${encodeURIComponent(token as string)}`,
      seo: await pageSeo(request, context, { titleKey: "certificate.title" }),
    },
    { headers: PRIVATE },
  );
}

export const headers: HeadersFunction = () => PRIVATE;

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function KeyCertificatePage() {
  const { certificate, paidText, untilText, back } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <CertificateView
      certificate={certificate}
      paidText={paidText}
      untilText={untilText}
      actions={
        <Link to={back} className="button button-ghost">
          {t("orders.detailTitle")}
        </Link>
      }
    />
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const which = status === 410 ? "expired" : status === 403 ? "invalid" : null;
  return (
    <main id="main" className="certificate">
      <h1>{which ? t(`keyOrder.${which}Title`) : status === 404 ? t("notFound.title") : t("errorService.title")}</h1>
      <p role="alert">{which ? t(`keyOrder.${which}`) : status === 404 ? t("notFound.message") : t("errorService.message")}</p>
    </main>
  );
}
