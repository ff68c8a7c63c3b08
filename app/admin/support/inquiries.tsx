import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { consoleInquiryPage } from "../../market/support-console.server";
import { INQUIRY_STATUSES, SUPPORT_CATEGORIES } from "../../market/support-rules";
import supportStyles from "../../styles/admin-support.css";
import { seoulText } from "../../utils/dates";
import { requireOperator } from "../guard.server";
import { AdminPagination, FilterForm, InputField, optionsOf, SelectField, TableScroll } from "../parts";
import { formObject, inquiryQuerySchema, seoulDayEnd, seoulDayStart } from "./forms.server";

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: supportStyles }];

/** /admin/inquiries: every member's and guest's 1:1 inquiries, newest first, by status, category and day received. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "inquiries");
  const q = inquiryQuerySchema.parse(formObject(new URL(request.url).searchParams));
  const list = await consoleInquiryPage(context.db, {
    status: q.status,
    category: q.category,
    from: q.from ? seoulDayStart(q.from) : undefined,
    to: q.to ? seoulDayEnd(q.to) : undefined,
    page: q.page,
  });
  return {
    query: { status: q.status ?? "", category: q.category ?? "", from: q.from ?? "", to: q.to ?? "" },
    list: {
      ...list,
      rows: list.rows.map((r) => ({
        ...r,
        createdAt: seoulText(r.createdAt, context.locale, "dateTime"),
        answeredAt: r.answeredAt ? seoulText(r.answeredAt, context.locale, "dateTime") : null,
      })),
    },
  };
}

export default function Inquiries() {
  const { query, list } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const kept = Object.fromEntries(Object.entries(query).filter(([, v]) => v));
  const href = (n: number) => `?${new URLSearchParams({ ...kept, page: String(n) })}`;
  return (
    <main className="admin-page">
      <h1>{t("admin.support.inquiries.title")}</h1>
      <p>{t("admin.support.inquiries.lead")}</p>
      <FilterForm
        label={t("admin.support.inquiries.filter")}
        apply={t("admin.support.inquiries.apply")}
        reset={{ to: "/admin/inquiries", text: t("admin.support.inquiries.reset") }}
      >
        <SelectField
          label={t("admin.support.inquiries.status")}
          name="status"
          value={query.status}
          all={t("admin.support.inquiries.allStatuses")}
          options={optionsOf(INQUIRY_STATUSES, (s) => t(`admin.support.statuses.${s}`))}
        />
        <SelectField
          label={t("admin.support.inquiries.category")}
          name="category"
          value={query.category}
          all={t("admin.support.inquiries.allCategories")}
          options={optionsOf(SUPPORT_CATEGORIES, (c) => t(`admin.support.categories.${c}`))}
        />
        <InputField label={t("admin.support.inquiries.from")} name="from" type="date" value={query.from} />
        <InputField label={t("admin.support.inquiries.to")} name="to" type="date" value={query.to} />
      </FilterForm>
      <p>{t("admin.support.inquiries.count", { count: list.total })}</p>
      {list.rows.length === 0 ? (
        <p>{t("admin.support.inquiries.empty")}</p>
      ) : (
        <TableScroll>
          <table className="admin-table">
            <caption>{t("admin.support.inquiries.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.support.inquiries.columns.number")}</th>
                <th scope="col">{t("admin.support.inquiries.columns.received")}</th>
                <th scope="col">{t("admin.support.inquiries.columns.category")}</th>
                <th scope="col">{t("admin.support.inquiries.columns.title")}</th>
                <th scope="col">{t("admin.support.inquiries.columns.from")}</th>
                <th scope="col">{t("admin.support.inquiries.columns.status")}</th>
                <th scope="col">{t("admin.support.inquiries.columns.answered")}</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((r) => (
                <tr key={r.id}>
                  <td>{r.id}</td>
                  <td className="nowrap">{r.createdAt}</td>
                  <td>{t(`admin.support.categories.${r.category}`)}</td>
                  <td>
                    <Link to={`/admin/inquiries/${r.id}`}>{r.title}</Link>
                    {r.hasAttachment ? <span className="admin-support-tag"> {t("admin.support.inquiries.attached")}</span> : null}
                  </td>
                  <td>
                    {r.member ? r.member.nickname : t("admin.support.guest")}
                    <br />
                    <span className="admin-support-muted">{r.email}</span>
                  </td>
                  <td>
                    <span className={`admin-support-status admin-support-status-${r.status}`}>
                      {t(`admin.support.statuses.${r.status}`)}
                    </span>
                  </td>
                  <td className="nowrap">{r.answeredAt ?? "—"}</td>
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
