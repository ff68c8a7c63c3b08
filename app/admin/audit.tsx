import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { auditPage, checkAuditTrail } from "../market/operators/audit.server";
import { seoulText } from "../utils/dates";
import { auditQuerySchema, formObject, seoulDayEnd, seoulDayStart } from "./forms.server";
import { requireOperator } from "./guard.server";
import { AdminPagination, DataTable, FilterForm, InputField } from "./parts";

export { AdminError as ErrorBoundary } from "./parts";

/**
 * /admin/audit (admin only): every operator action, newest first, filtered by operator, action, target and day; above
 * it, whether the hash chain still holds (the whole trail is checked at each view).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "audit");
  const url = new URL(request.url);
  const parsed = auditQuerySchema.safeParse(formObject(url.searchParams));
  const q = parsed.success ? parsed.data : auditQuerySchema.parse({});
  const [list, trail] = await Promise.all([
    auditPage(context.db, {
      operator: q.operator || undefined,
      action: q.action || undefined,
      targetType: q.target || undefined,
      targetId: q.targetId || undefined,
      from: q.from ? seoulDayStart(q.from) : undefined,
      to: q.to ? seoulDayEnd(q.to) : undefined,
      page: q.page,
    }),
    checkAuditTrail(context.db),
  ]);
  return {
    trail,
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
  const { query, list, trail } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const href = (n: number) => `?${new URLSearchParams({ ...query, page: String(n) })}`;
  return (
    <main className="admin-page">
      <h1>{t("admin.core.audit.title")}</h1>
      <p>{t("admin.core.audit.lead")}</p>
      {trail.ok ? (
        <p role="status" className="admin-ok" data-testid="audit-trail">
          {trail.rows
            ? t("admin.core.audit.trail.intact", { count: trail.rows, hash: trail.lastHash?.slice(0, 16) })
            : t("admin.core.audit.trail.empty")}
        </p>
      ) : (
        <p role="alert" className="admin-alert" data-testid="audit-trail">
          {trail.problem === "unchained"
            ? t("admin.core.audit.trail.unchained", { count: trail.count })
            : t(`admin.core.audit.trail.${trail.problem}`, { seq: trail.seq })}
        </p>
      )}
      <FilterForm
        label={t("admin.core.audit.filter")}
        apply={t("admin.core.audit.apply")}
        reset={{ to: "/admin/audit", text: t("admin.core.audit.reset") }}
      >
        <InputField label={t("admin.core.audit.operator")} name="operator" value={query.operator} />
        <InputField label={t("admin.core.audit.action")} name="action" value={query.action} />
        <InputField label={t("admin.core.audit.target")} name="target" value={query.target} />
        <InputField label={t("admin.core.audit.targetId")} name="targetId" value={query.targetId} />
        <InputField label={t("admin.core.audit.from")} name="from" type="date" value={query.from} />
        <InputField label={t("admin.core.audit.to")} name="to" type="date" value={query.to} />
      </FilterForm>
      <p>{t("admin.core.audit.count", { count: list.total })}</p>
      <DataTable
        caption={t("admin.core.audit.caption")}
        empty={t("admin.core.audit.empty")}
        columns={[
          t("admin.core.audit.columns.seq"),
          t("admin.core.audit.columns.when"),
          t("admin.core.audit.columns.operator"),
          t("admin.core.audit.columns.action"),
          t("admin.core.audit.columns.target"),
          t("admin.core.audit.columns.before"),
          t("admin.core.audit.columns.after"),
          t("admin.core.audit.columns.reason"),
        ]}
        rows={list.rows}
        row={(r) => (
          <tr key={r.id}>
            <td>{r.seq}</td>
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
        )}
      />
      <AdminPagination page={list.page} pages={list.pages} href={href} />
    </main>
  );
}
