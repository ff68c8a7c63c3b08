import { data, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import estimateStyles from "../styles/estimate.css";
import { pageSeo } from "../utils/page.server";
import { readQuote } from "../utils/quote-access.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["estimate", "purchase"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: estimateStyles }];

/**
 * /mypage/estimate: the printable quote of a purchase request (plain layout, outside the storefront's chrome). No
 * login with the request's unguessable link (?token=); the representative opens their own by ?id=. A bad or expired
 * link answers 404 with the spec's message.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [view, seo] = await Promise.all([readQuote(request, context), pageSeo(request, context, { titleKey: "estimate.title" })]);
  if (!view) return data({ view: null, pdfHref: "", locale: context.locale, seo }, { status: 404 });
  const params = new URL(request.url).searchParams;
  const token = params.get("token");
  const pdfQuery = token ? new URLSearchParams({ token }) : new URLSearchParams({ id: String(view.quote.requestId) });
  return { view, pdfHref: `/mypage/estimate-pdf?${pdfQuery}`, locale: context.locale, seo };
}

/** A quote names a customer: no shared cache keeps it. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function EstimatePage() {
  const { view, pdfHref, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const hydrated = useHydrated();
  if (!view) {
    return (
      <main id="main" className="plain-page">
        <h1>{t("notFound.title")}</h1>
        <p>{t("quoteNotFound")}</p>
        <p>
          <a href="/">{t("notFound.home")}</a>
        </p>
      </main>
    );
  }
  const { quote: q, issued, validUntil } = view;
  const money = (n: number) => formatMoney(n, q.currency, locale);
  const r = q.recipient;
  return (
    <main id="main" className="quote">
      <header className="quote-head">
        <p className="quote-brand">{t("brand")}</p>
        <h1>{t("estimate.title")}</h1>
        <dl className="quote-meta">
          <div>
            <dt>{t("estimate.number")}</dt>
            <dd>{q.requestNo}</dd>
          </div>
          <div>
            <dt>{t("estimate.issued")}</dt>
            <dd>{issued}</dd>
          </div>
          <div>
            <dt>{t("estimate.validUntil")}</dt>
            <dd>{validUntil}</dd>
          </div>
        </dl>
      </header>
      {q.state !== "waiting" ? <p className="quote-state">{t("estimate.state", { state: t(`purchase.state.${q.state}`) })}</p> : null}
      <div className="quote-parties">
        <section aria-labelledby="quote-supplier">
          <h2 id="quote-supplier">{t("estimate.supplier")}</h2>
          <address>
            <strong>{t("footer.company")}</strong>
            <br />
            {t("footer.ceo")}
            <br />
            {t("footer.businessNo")}
            <br />
            {t("footer.address")}
            <br />
            {t("footer.phone")}
            <br />
            {t("footer.email")}
          </address>
        </section>
        <section aria-labelledby="quote-recipient">
          <h2 id="quote-recipient">{t("estimate.recipient")}</h2>
          <dl className="quote-facts">
            <dt>{t("estimate.organization")}</dt>
            <dd>{r.organization ?? "—"}</dd>
            <dt>{t("estimate.requester")}</dt>
            <dd>{r.requestEmail}</dd>
            <dt>{t("estimate.licenseKey")}</dt>
            <dd>
              {r.serial}
              {r.alias ? ` (${r.alias})` : ""}
            </dd>
          </dl>
        </section>
      </div>
      <p>{t("estimate.statement")}</p>
      <table className="quote-table stack-table">
        <caption className="visually-hidden">{t("estimate.items")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("estimate.item")}</th>
            <th scope="col">{t("estimate.code")}</th>
            <th scope="col" className="num">
              {t("estimate.unitPrice")}
            </th>
            <th scope="col" className="num">
              {t("estimate.quantity")}
            </th>
            <th scope="col" className="num">
              {t("estimate.lineAmount")}
            </th>
          </tr>
        </thead>
        <tbody>
          {q.lines.map((l, i) => (
            <tr key={`${l.code}-${i}`}>
              <td data-label={t("estimate.item")}>{l.title}</td>
              <td data-label={t("estimate.code")}>{l.code}</td>
              <td data-label={t("estimate.unitPrice")} className="num">
                {money(l.unit)}
              </td>
              <td data-label={t("estimate.quantity")} className="num">
                {l.quantity}
              </td>
              <td data-label={t("estimate.lineAmount")} className="num">
                {money(l.amount)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="quote-sums">
        <dt>{t("estimate.amount")}</dt>
        <dd>{money(q.amount)}</dd>
        <dt>{t("estimate.vat")}</dt>
        <dd>{money(q.vat)}</dd>
        <dt className="quote-total">{t("estimate.total")}</dt>
        <dd className="quote-total">{money(q.total)}</dd>
      </dl>
      <p className="quote-note">{t("estimate.validNote", { date: validUntil })}</p>
      <p className="quote-actions no-print">
        {hydrated ? (
          <button type="button" className="button" onClick={() => window.print()}>
            {t("estimate.print")}
          </button>
        ) : null}
        <a href={pdfHref} className="button button-ghost" download>
          {t("estimate.pdf")}
        </a>
      </p>
    </main>
  );
}
