import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { type Currency, formatMoney } from "../../market/money";
import { confirmSandboxDeposit, waitingDeposits } from "../../market/orders/console.server";
import styles from "../../styles/admin-orders.css";
import { seoulText } from "../../utils/dates";
import { formObject } from "../forms.server";
import { actorOf, requireOperator } from "../guard.server";
import { AdminPagination, TableScroll } from "../parts";
import { orderActionSchema, pageSchema } from "./forms.server";
import { OrdersNav } from "./parts";
import { attempt, refusalKey } from "./refusal.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "orders"] };

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * /admin/orders/deposits (finance): virtual-account orders waiting for their deposit, the soonest deadline first;
 * with the sandbox gateway, an operator confirms a deposit (settled as the gateway's notification would be).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "orders");
  const page = pageSchema.parse(new URL(request.url).searchParams.get("page") ?? 1);
  const list = await waitingDeposits(context.db, page);
  const locale = context.locale;
  return {
    sandbox: Boolean(context.payments.sandbox),
    list: {
      ...list,
      rows: list.rows.map((r) => ({
        id: r.id,
        orderNo: r.order_no,
        placed: seoulText(r.created_at, locale),
        due: seoulText(r.vbank_due_at, locale),
        total: formatMoney(r.total, r.currency as Currency, locale),
        email: r.buyer_email,
        account: [r.vbank_bank, r.vbank_account].filter(Boolean).join(" "),
        sandbox: r.gateway === "sandbox",
      })),
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "orders");
  const parsed = orderActionSchema.safeParse(formObject(await request.formData()));
  if (!parsed.success || parsed.data.intent !== "deposit")
    return data({ ok: false as const, problem: "form", orderNo: null, status: null }, { status: 400 });
  const id = parsed.data.id;
  const result = await attempt(() => confirmSandboxDeposit(context.db, context.payments, id, actorOf(op, context)));
  if (result.refused)
    return data({ ok: false as const, problem: refusalKey(result.code), orderNo: null, status: null }, { status: result.status });
  const order = await context.db.selectFrom("orders").select("order_no").where("id", "=", id).executeTakeFirstOrThrow();
  return { ok: true as const, problem: null, orderNo: order.order_no, status: result.value.status };
}

export default function Deposits() {
  const { sandbox, list } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <main className="admin-page">
      <h1>{t("admin.orders.deposits.title")}</h1>
      <OrdersNav />
      <p>{sandbox ? t("admin.orders.deposits.leadSandbox") : t("admin.orders.deposits.leadLive")}</p>
      {result?.ok ? (
        <p role="status" className="admin-ok">
          {t("admin.orders.deposits.done", { orderNo: result.orderNo, status: t(`admin.orders.status.${result.status}`) })}
        </p>
      ) : result ? (
        <p role="alert" className="admin-alert">
          {t(`admin.orders.problems.${result.problem}`)}
        </p>
      ) : null}
      <p>{t("admin.orders.list.count", { count: list.total })}</p>
      {list.rows.length === 0 ? (
        <p>{t("admin.orders.deposits.empty")}</p>
      ) : (
        <TableScroll>
          <table className="admin-table">
            <caption>{t("admin.orders.deposits.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.columns.orderNo")}</th>
                <th scope="col">{t("admin.orders.columns.placed")}</th>
                <th scope="col">{t("admin.orders.columns.due")}</th>
                <th scope="col">{t("admin.orders.columns.member")}</th>
                <th scope="col">{t("admin.orders.columns.account")}</th>
                <th scope="col">{t("admin.orders.columns.total")}</th>
                <th scope="col">{t("admin.orders.columns.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((r) => (
                <tr key={r.id}>
                  <th scope="row">
                    <Link to={`/admin/orders/${r.id}`}>{r.orderNo}</Link>
                  </th>
                  <td className="nowrap">{r.placed}</td>
                  <td className="nowrap">{r.due}</td>
                  <td>{r.email}</td>
                  <td>{r.account}</td>
                  <td className="num">{r.total}</td>
                  <td>
                    {sandbox && r.sandbox ? (
                      <Form method="post" className="admin-inline-form">
                        <input type="hidden" name="intent" value="deposit" />
                        <input type="hidden" name="id" value={r.id} />
                        <button type="submit" aria-label={t("admin.orders.deposits.confirmFor", { orderNo: r.orderNo })}>
                          {t("admin.orders.deposits.confirm")}
                        </button>
                      </Form>
                    ) : (
                      t("admin.orders.deposits.byBank")
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <AdminPagination page={list.page} pages={list.pages} href={(n) => `?page=${n}`} />
    </main>
  );
}
