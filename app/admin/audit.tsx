import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { auditPage } from "../market/operators/audit.server";
import { seoulText } from "../utils/dates";
import { auditQuerySchema, formObject, seoulDayEnd, seoulDayStart } from "./forms.server";
import { requireOperator } from "./guard.server";
import { AdminPagination } from "./parts";

export { AdminError as ErrorBoundary } from "./parts";

/** /admin/audit (admin only): every operator action, newest first, filtered by operator, action, target and day. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "audit");
  const url = new URL(request.url);
  const parsed = auditQuerySchema.safeParse(formObject(url.searchParams));
  const q = parsed.success ? parsed.data : auditQuerySchema.parse({});
  const list = await auditPage(context.db, {
    operator: q.operator || undefined,
    action: q.action || undefined,
    targetType: q.target || undefined,
    targetId: q.targetId || undefined,
    from: q.from ? seoulDayStart(q.from) : undefined,
    to: q.to ? seoulDayEnd(q.to) : undefined,
    page: q.page,
  });
  return {
    query: {
      operator: q.operator ?? "",
      action: q.action ?? "",
      target: q.target ?? "",
      targetId: q.targetId ?? "",
      from: q.from ?? "",
      to: q.to ?? "",
    },
    list: { ...list, rows: list.rows.map((r) => ({ ...r, createdAt: seoulText(r.createdAt, context.locale, "long") })) },
  };
}

export default function AuditLog() {
  const { query, list } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const href = (n: number) => `?${new URLSearchParams({ ...query, page: String(n) })}`;
  return (
    <main className="admin-page">
      <h1>{t("admin.core.audit.title")}</h1>
      <p>{t("admin.core.audit.lead")}</p>
      <Form method="get" className="admin-filters" aria-label={t("admin.core.audit.filter")}>
        <label>
          {t("admin.core.audit.operator")}
          <input type="text" name="operator" defaultValue={query.operator} />
        </label>
        <label>
          {t("admin.core.audit.action")}
          <input type="text" name="action" defaultValue={query.action} />
        </label>
        <label>
          {t("admin.core.audit.target")}
          <input type="text" name="target" defaultValue={query.target} />
        </label>
        <label>
          {t("admin.core.audit.targetId")}
          <input type="text" name="targetId" defaultValue={query.targetId} />
        </label>
        <label>
          {t("admin.core.audit.from")}
          <input type="date" name="from" defaultValue={query.from} />
        </label>
        <label>
          {t("admin.core.audit.to")}
          <input type="date" name="to" defaultValue={query.to} />
        </label>
        <button type="submit">{t("admin.core.audit.apply")}</button>
        <Link to="/admin/audit">{t("admin.core.audit.reset")}</Link>
      </Form>
      <p>{t("admin.core.audit.count", { count: list.total })}</p>
      {list.rows.length === 0 ? (
        <p>{t("admin.core.audit.empty")}</p>
      ) : (
        <div className="admin-table-scroll">
          <table className="admin-table">
            <caption>{t("admin.core.audit.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.core.audit.columns.when")}</th>
                <th scope="col">{t("admin.core.audit.columns.operator")}</th>
                <th scope="col">{t("admin.core.audit.columns.action")}</th>
                <th scope="col">{t("admin.core.audit.columns.target")}</th>
                <th scope="col">{t("admin.core.audit.columns.before")}</th>
                <th scope="col">{t("admin.core.audit.columns.after")}</th>
                <th scope="col">{t("admin.core.audit.columns.reason")}</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((r) => (
                <tr key={r.id}>
                  <td className="nowrap">{r.createdAt}</td>
                  <td>{r.operatorEmail}</td>
                  <td>
                    <code>{r.action}</code>
                  </td>
                  <td>
                    {r.targetType}
                    {r.targetId ? ` #${r.targetId}` : ""}
                  </td>
                  <td>{r.before ? <code className="admin-json">{r.before}</code> : null}</td>
                  <td>{r.after ? <code className="admin-json">{r.after}</code> : null}</td>
                  <td>{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <AdminPagination page={list.page} pages={list.pages} href={href} />
    </main>
  );
}
