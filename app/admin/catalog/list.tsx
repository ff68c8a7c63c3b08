import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { CONTENT_STATUSES, CONTENT_TYPES } from "../../market/catalog/kinds";
import { listCatalog } from "../../market/catalog/manage.server";
import { formatMoney } from "../../market/money";
import catalogStyles from "../../styles/admin-catalog.css";
import { seoulText } from "../../utils/dates";
import { formObject } from "../forms.server";
import { requireOperator } from "../guard.server";
import { AdminPagination, FilterForm, InputField, optionsOf, SelectField, TableScroll } from "../parts";
import { catalogQuerySchema } from "./forms.server";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: catalogStyles }];

/** /admin/catalog (catalog, admin): every item of the catalog, newest first, by type, status and keyword, paged. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "catalog");
  const q = catalogQuerySchema.parse(formObject(new URL(request.url).searchParams));
  const list = await listCatalog(context.db, { type: q.type, status: q.status, keyword: q.keyword || undefined, page: q.page });
  const locale = context.locale;
  return {
    query: { type: q.type ?? "", status: q.status ?? "", keyword: q.keyword ?? "" },
    list: {
      ...list,
      rows: list.rows.map((r) => ({
        id: r.id,
        code: r.code,
        type: r.type,
        title: locale === "ko" ? r.titleKo : r.titleEn,
        status: r.status,
        priceType: r.priceType,
        price: r.priceType === "paid" ? `${formatMoney(r.priceKrw, "KRW", locale)} / ${formatMoney(r.priceUsd, "USD", locale)}` : null,
        released: seoulText(r.releasedAt, locale, "date"),
      })),
    },
  };
}

export default function CatalogList() {
  const { query, list } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const href = (n: number) => `?${new URLSearchParams({ ...query, page: String(n) })}`;
  return (
    <main className="admin-page">
      <h1>{t("admin.catalog.list.title")}</h1>
      <p className="catalog-actions">
        <Link to="/admin/catalog/new">{t("admin.catalog.list.new")}</Link>
        <Link to="/admin/catalog/import">{t("admin.catalog.list.import")}</Link>
      </p>
      <FilterForm
        label={t("admin.catalog.list.filter")}
        apply={t("admin.catalog.list.apply")}
        reset={{ to: "/admin/catalog", text: t("admin.catalog.list.reset") }}
      >
        <SelectField
          label={t("admin.catalog.fields.type")}
          name="type"
          value={query.type}
          all={t("admin.catalog.list.any")}
          options={optionsOf(CONTENT_TYPES, (type) => t(`admin.catalog.types.${type}`))}
        />
        <SelectField
          label={t("admin.catalog.fields.status")}
          name="status"
          value={query.status}
          all={t("admin.catalog.list.any")}
          options={optionsOf(CONTENT_STATUSES, (status) => t(`admin.catalog.statuses.${status}`))}
        />
        <InputField label={t("admin.catalog.list.keyword")} name="keyword" type="search" value={query.keyword} maxLength={100} />
      </FilterForm>
      <p>{t("admin.catalog.list.count", { count: list.total })}</p>
      {list.rows.length === 0 ? (
        <p>{t("admin.catalog.list.empty")}</p>
      ) : (
        <TableScroll>
          <table className="admin-table">
            <caption>{t("admin.catalog.list.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.catalog.fields.code")}</th>
                <th scope="col">{t("admin.catalog.fields.title")}</th>
                <th scope="col">{t("admin.catalog.fields.type")}</th>
                <th scope="col">{t("admin.catalog.fields.status")}</th>
                <th scope="col">{t("admin.catalog.fields.price")}</th>
                <th scope="col">{t("admin.catalog.fields.released")}</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/admin/catalog/${r.id}`}>{r.code}</Link>
                  </td>
                  <td>{r.title}</td>
                  <td>{t(`admin.catalog.types.${r.type}`)}</td>
                  <td>
                    <span className={r.status === "active" ? undefined : "catalog-discontinued"}>
                      {t(`admin.catalog.statuses.${r.status}`)}
                    </span>
                  </td>
                  <td>{r.price ?? t(`admin.catalog.priceTypes.${r.priceType}`)}</td>
                  <td className="nowrap">{r.released}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <AdminPagination page={list.page} pages={list.pages} href={href} />
    </main>
  );
}
