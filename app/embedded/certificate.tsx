import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { CertificateView } from "../components/certificate-view";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { keyCertificateOf } from "../market/orders/certificate.server";
import { seoulText } from "../utils/dates";
import { positiveId } from "../utils/input.server";
import { requireEmbeddedLicense } from "./licence.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["certificate", "download", "embedded", "item", "licenses", "orders", "pay", "purchase", "request"] };

/**
 * /mypage/sw/certificate/{line}: the licence certificate of one item of a direct purchase made with the key the
 * editor runs (a member's items have theirs on the website's /mypage/certificate/{line}). Another key's: 404.
 * Printable, so outside the webview's layout (remix.config.js), but under /mypage/sw: the licence cookie reaches it.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const licence = await requireEmbeddedLicense(request, context);
  const line = positiveId.safeParse(params.id);
  const certificate = line.success ? await keyCertificateOf(context.db, licence.id, line.data, context.locale) : null;
  if (!certificate) throw data(null, { status: 404, headers: PRIVATE });
  const t = fixedT(context.locale);
  return data(
    {
      certificate,
      paidText: seoulText(certificate.paidAt, context.locale, "date"),
      untilText: seoulText(certificate.usableUntil, context.locale, "until"),
      title: `${t("certificate.title")} | ${t("embedded.title")}`,
    },
    { headers: PRIVATE },
  );
}

const PRIVATE = { "Cache-Control": "private, no-store" };

export const headers: HeadersFunction = () => PRIVATE;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export default function EmbeddedCertificate() {
  const { certificate, paidText, untilText } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <CertificateView
      certificate={certificate}
      paidText={paidText}
      untilText={untilText}
      actions={
        <Link to="/mypage/sw/pay" className="button button-ghost">
          {t("embedded.backToPay")}
        </Link>
      }
    />
  );
}

/** Without a licence (opened outside the editor) or for another key's item: said, nothing shown. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main id="main" className="certificate">
      <h1>{status === 404 ? t("notFound.title") : status === 401 || status === 403 ? t("embedded.title") : t("errorService.title")}</h1>
      <p role="alert">
        {status === 404
          ? t("notFound.message")
          : status === 401
            ? t("embedded.openFromEditor")
            : status === 403
              ? t("embedded.invalidLicense")
              : t("errorService.message")}
      </p>
    </main>
  );
}
