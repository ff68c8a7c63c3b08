import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { type Currency, formatMoney } from "../../market/money";
import { RECONCILE_LIMIT, reconcileOrder, reconciliationList } from "../../market/orders/console.server";
import styles from "../../styles/admin-orders.css";
import { seoulText } from "../../utils/dates";
import { formObject } from "../forms.server";
import { actorOf, requireOperator } from "../guard.server";
import { TableScroll } from "../parts";
import { orderActionSchema } from "./forms.server";
import { OrdersNav } from "./parts";
import { attempt, refusalKey } from "./refusal.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "orders"] };

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * /admin/orders/reconciliation (finance): payments still open, refunds the gateway never answered, and payments
 * whose gateway record disagrees with ours; a button per order re-reads the gateway and settles (audited).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "orders");
  const list = await reconciliationList(context.db, context.payments);
  const locale = context.locale;
  return {
    checked: list.checked,
    candidates: list.candidates,
    limit: RECONCILE_LIMIT,
    rows: list.rows.map((r) => ({
      id: r.id,
      orderNo: r.orderNo,
      placed: seoulText(r.createdAt, locale),
      status: r.status,
      method: r.method,
      total: formatMoney(r.total, r.currency as Currency, locale),
      reasons: r.reasons,
      gatewayStatus: r.gatewayStatus,
      differences: r.differences.map((d) => ({
        field: d.field,
        ours: typeof d.ours === "number" ? formatMoney(d.ours, r.currency, locale) : d.ours,
        theirs: typeof d.theirs === "number" ? formatMoney(d.theirs, r.currency, locale) : d.theirs,
      })),
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "orders");
  const parsed = orderActionSchema.safeParse(formObject(await request.formData()));
  if (!parsed.success || parsed.data.intent !== "reconcile")
    return data({ ok: false as const, problem: "form", outcome: null }, { status: 400 });
  const id = parsed.data.id;
  const result = await attempt(() => reconcileOrder(context.db, context.payments, id, actorOf(op, context)));
  if (result.refused) return data({ ok: false as const, problem: refusalKey(result.code), outcome: null }, { status: result.status });
  const order = await context.db.selectFrom("orders").select("order_no").where("id", "=", id).executeTakeFirstOrThrow();
  return { ok: true as const, problem: null, outcome: { orderNo: order.order_no, ...result.value } };
}

export default function Reconciliation() {
  const { rows, checked, candidates, limit } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const status = (s: string) => t(`admin.orders.status.${s}`);
  const outcome = result?.ok ? result.outcome : null;
  return (
    <main className="admin-page">
      <h1>{t("admin.orders.reconcile.title")}</h1>
      <OrdersNav />
      <p>{t("admin.orders.reconcile.lead", { checked, limit })}</p>
      {checked < candidates ? <p className="admin-alert">{t("admin.orders.reconcile.partial", { checked, candidates })}</p> : null}
      {outcome ? (
        <p role="status" className="admin-ok">
          {outcome.changed
            ? t("admin.orders.reconcile.changed", {
                orderNo: outcome.orderNo,
                before: status(outcome.before),
                after: status(outcome.after),
              })
            : t("admin.orders.reconcile.unchanged", { orderNo: outcome.orderNo, status: status(outcome.after) })}{" "}
          {outcome.waiting ? t("admin.orders.reconcile.waiting") : ""}
          {outcome.unresolved ? t("admin.orders.reconcile.unresolved") : ""}
          {!outcome.agree ? t("admin.orders.reconcile.stillDisagree") : ""}
        </p>
      ) : result && !result.ok ? (
        <p role="alert" className="admin-alert">
          {t(`admin.orders.problems.${result.problem}`)}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p>{t("admin.orders.reconcile.empty")}</p>
      ) : (
        <TableScroll>
          <table className="admin-table">
            <caption>{t("admin.orders.reconcile.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.columns.orderNo")}</th>
                <th scope="col">{t("admin.orders.columns.placed")}</th>
                <th scope="col">{t("admin.orders.columns.status")}</th>
                <th scope="col">{t("admin.orders.columns.gatewayStatus")}</th>
                <th scope="col">{t("admin.orders.columns.total")}</th>
                <th scope="col">{t("admin.orders.columns.why")}</th>
                <th scope="col">{t("admin.orders.columns.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <th scope="row">
                    <Link to={`/admin/orders/${r.id}`}>{r.orderNo}</Link>
                  </th>
                  <td className="nowrap">{r.placed}</td>
                  <td>{status(r.status)}</td>
                  <td>{r.gatewayStatus ? t(`admin.orders.gatewayStatus.${r.gatewayStatus}`) : "—"}</td>
                  <td className="num">{r.total}</td>
                  <td>
                    <ul>
                      {r.reasons.map((why) => (
                        <li key={why}>{t(`admin.orders.reconcile.reasons.${why}`)}</li>
                      ))}
                      {r.differences.map((d) => (
                        <li key={d.field} className="compare-disagree">
                          {t("admin.orders.reconcile.difference", {
                            field: t(`admin.orders.compare.fields.${d.field}`),
                            ours: d.field === "status" ? status(String(d.ours)) : d.ours,
                            theirs: d.field === "status" ? t(`admin.orders.gatewayStatus.${d.theirs}`) : d.theirs,
                          })}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <Form method="post" className="admin-inline-form">
                      <input type="hidden" name="intent" value="reconcile" />
                      <input type="hidden" name="id" value={r.id} />
                      <button type="submit" aria-label={t("admin.orders.reconcile.buttonFor", { orderNo: r.orderNo })}>
                        {t("admin.orders.reconcile.button")}
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </main>
  );
}
