import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PopupLink } from "../components/popup-link";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";
import { deleteRequests, requestDetail } from "../market/requests/requests.server";
import { requireViewer } from "../utils/auth.server";
import { seoulText } from "../utils/dates";
import { positiveId, purchaseRequestsActionSchema } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { isRepresentative, payRequests } from "../utils/representative.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["item", "licenses", "orders", "pay", "purchase", "request"] };

/**
 * /mypage/purchase/{id}: one purchase request in full (items at the quoted and the payable price, discontinued and
 * repriced items flagged, the amount paying now charges), with Pay, Delete and the printable quote. Another
 * account's, a deleted or an unknown request is not found.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = positiveId.safeParse(params.id);
  const detail = id.success && isRepresentative(viewer) ? await requestDetail(context.db, viewer.id, id.data, context.locale) : null;
  if (!detail) throw data(null, { status: 404 });
  // Times are spelled on the server only (see utils/dates.ts).
  const dates = {
    created: seoulText(detail.created_at, context.locale),
    expires: seoulText(detail.expires_at, context.locale),
    paid: seoulText(detail.paid_at, context.locale),
  };
  return { detail, dates, locale: context.locale, seo: await pageSeo(request, context, { titleKey: "purchase.detailTitle" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, params, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const id = positiveId.safeParse(params.id);
  if (!id.success || !isRepresentative(viewer)) throw data(null, { status: 404 });
  const form = await request.formData();
  const parsed = purchaseRequestsActionSchema.safeParse({ intent: form.get("intent"), request: [id.data] });
  if (!parsed.success) return data({ error: "purchase.nothingSelected" }, { status: 400 });
  if (parsed.data.intent === "delete") {
    const count = await deleteRequests(context.db, viewer.id, [id.data]);
    if (!count) throw data(null, { status: 404 });
    return redirect(`/mypage/purchase?deleted=${count}`);
  }
  const started = await payRequests(context, viewer.id, [id.data]);
  if (started instanceof Response) return started;
  return data({ error: started.error }, { status: started.status });
}

export default function PurchaseRequestDetail() {
  const { detail: d, dates, locale } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const money = (n: number) => formatMoney(n, d.currency, locale);
  const busy = navigation.state === "submitting";
  const waiting = d.state === "waiting";
  return (
    <section className="request-page request-detail">
      <p className="breadcrumb">
        <Link to="/mypage/purchase">{t("purchase.backToList")}</Link>
      </p>
      <h1>{t("purchase.detailTitle")}</h1>
      <dl className="price-box detail-grid request-facts">
        <dt>{t("purchase.number")}</dt>
        <dd>{d.request_no}</dd>
        <dt>{t("purchase.date")}</dt>
        <dd>{dates.created}</dd>
        <dt>{t("purchase.status")}</dt>
        <dd className={`request-state is-${d.state}`}>{t(`purchase.state.${d.state}`)}</dd>
        <dt>{t("purchase.deadline")}</dt>
        <dd>{dates.expires}</dd>
        {d.state === "paid" ? (
          <>
            <dt>{t("purchase.paidAt")}</dt>
            <dd>{dates.paid}</dd>
            {d.order_no ? (
              <>
                <dt>{t("purchase.orderNo")}</dt>
                <dd>{d.order_no}</dd>
              </>
            ) : null}
          </>
        ) : null}
        <dt>{t("purchase.email")}</dt>
        <dd>{d.request_email}</dd>
        <dt>{t("purchase.message")}</dt>
        <dd>{d.message}</dd>
        <dt>{t("purchase.licenseKey")}</dt>
        <dd>{d.license_id}</dd>
        <dt>{t("purchase.alias")}</dt>
        <dd>{d.license_alias ?? "—"}</dd>
      </dl>
      <h2 className="section-title">{t("purchase.items")}</h2>
      <div className="table-scroll">
        <table className="data-table request-table">
          <caption className="visually-hidden">{t("purchase.items")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("purchase.item")}</th>
              <th scope="col" className="num">
                {t("purchase.quotedPrice")}
              </th>
              <th scope="col" className="num">
                {t("purchase.payablePrice")}
              </th>
            </tr>
          </thead>
          <tbody>
            {d.items.map((i) => (
              <tr key={i.content_id}>
                <td>
                  {i.title}
                  <br />
                  <small className="muted">
                    {i.item_code} · {t(`item.types.${i.item_type}`)}
                  </small>
                  {i.discontinued ? (
                    <>
                      <br />
                      <strong className="request-flag">{t("purchase.discontinued")}</strong>
                    </>
                  ) : i.repriced ? (
                    <>
                      <br />
                      <small className="request-flag is-info">{t("purchase.repriced")}</small>
                    </>
                  ) : null}
                </td>
                <td className="num">{money(i.quoted_price)}</td>
                <td className="num">{i.payable_price === null ? "—" : money(i.payable_price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {waiting ? (
        <dl className="price-box request-sums">
          <dt>{t("purchase.amount")}</dt>
          <dd>{money(d.payable.amount)}</dd>
          <dt>{t("purchase.vat")}</dt>
          <dd>{money(d.payable.vat)}</dd>
          <dt>{t("purchase.payTotal")}</dt>
          <dd className="price-total">{money(d.payable.total)}</dd>
        </dl>
      ) : (
        <dl className="price-box request-sums">
          <dt>{t("purchase.total")}</dt>
          <dd className="price-total">{money(d.total)}</dd>
        </dl>
      )}
      {waiting && d.items.some((i) => i.discontinued) ? <p className="muted">{t("purchase.payNote")}</p> : null}
      <p className="field-error" role="alert">
        {result?.error ? t(result.error) : ""}
      </p>
      <Form method="post" className="pay-actions">
        {waiting ? (
          <button type="submit" name="intent" value="pay" className="button" disabled={busy}>
            {t("purchase.pay")}
          </button>
        ) : null}
        <button type="submit" name="intent" value="delete" className="button button-ghost" disabled={busy}>
          {t("purchase.delete")}
        </button>
        <PopupLink href={`/mypage/estimate?id=${d.id}`} className="button button-ghost">
          {t("purchase.printQuote")}
        </PopupLink>
      </Form>
    </section>
  );
}
