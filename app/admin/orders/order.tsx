import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import type { Currency } from "../../market/money";
import { formatMoney } from "../../market/money";
import { cancelOrder } from "../../market/orders/cancel.server";
import { consoleOrder } from "../../market/orders/console.server";
import styles from "../../styles/admin-orders.css";
import { seoulText } from "../../utils/dates";
import { actorOf, requireOperator } from "../guard.server";
import { TableScroll } from "../parts";
import { operatorCancelSchema, orderIdSchema } from "./forms.server";
import { OrdersNav } from "./parts";
import { attempt, refusalKey } from "./refusal.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "orders"] };

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * /admin/orders/:id (finance): the order with its lines, member, licence, coupon, payment events and refunds, the
 * gateway's record of the payment beside ours (disagreements flagged), and cancelling on the customer's behalf.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, "orders");
  const id = orderIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const found = await consoleOrder(context.db, context.payments, id.data, context.locale);
  if (!found) throw data(null, { status: 404 });
  const locale = context.locale;
  const { order, view } = found;
  const money = (n: number, currency: Currency = order.currency) => formatMoney(n, currency, locale);
  const when = (iso: string | null) => (iso ? seoulText(iso, locale, "long") : "");
  return {
    id: order.id,
    orderNo: order.orderNo,
    name: order.name,
    status: order.status,
    method: order.method,
    currency: order.currency,
    purchaseCategory: order.purchaseCategory,
    placedAt: when(order.createdAt),
    paidAt: when(order.paidAt),
    updatedAt: when(found.updatedAt),
    amounts: {
      amount: money(order.amount),
      discount: money(order.discount),
      vat: money(order.vat),
      total: money(order.total),
      paid: money(order.paidAmount),
      cancelled: money(order.cancelAmount),
      deduction: money(order.refundDeduction),
    },
    buyerEmail: found.buyerEmail,
    member: found.member,
    license: order.license,
    coupon: found.coupon,
    vbank: order.vbank ? { ...order.vbank, dueAt: when(order.vbank.dueAt) } : null,
    failure: found.failure,
    pendingReason: order.pendingReason,
    gateway: found.gateway,
    gatewayPaymentId: found.gatewayPaymentId,
    lines: order.lines.map((l) => ({
      id: l.id,
      title: l.title || l.code || `#${l.id}`,
      code: l.code,
      itemType: l.itemType,
      total: money(l.total),
      status: l.status,
      used: l.used,
      refund: l.refundAmount ? money(l.refundAmount) : "",
      memberRule: l.cancellable ? null : l.refusal,
      overridable: found.overridable.includes(l.id),
    })),
    refunds: found.refunds.map((r) => ({
      ...r,
      gross: money(r.gross),
      deduction: money(r.deduction),
      amount: money(r.amount),
      createdAt: when(r.createdAt),
    })),
    events: found.events.map((e) => ({ ...e, receivedAt: when(e.receivedAt) })),
    view:
      view.state === "ok"
        ? {
            state: "ok" as const,
            agree: view.agree,
            gatewayStatus: view.payment.status,
            paidAt: when(view.payment.paidAt ?? null),
            rows: view.rows.map((r) => ({
              field: r.field,
              agree: r.agree,
              ours: typeof r.ours === "number" ? money(r.ours) : r.ours,
              theirs: typeof r.theirs === "number" ? money(r.theirs, (view.payment.currency as Currency) ?? order.currency) : r.theirs,
            })),
          }
        : { state: view.state },
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "orders");
  const id = orderIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const form = await request.formData();
  const text = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v.slice(0, 600) : "";
  };
  const values = {
    reason: text("reason"),
    bank: text("bank"),
    account: text("account"),
    holder: text("holder"),
    override: text("override"),
  };
  const lines = form.getAll("line").filter((v): v is string => typeof v === "string");
  const parsed = operatorCancelSchema.safeParse({ ...values, intent: text("intent"), line: lines, override: values.override || undefined });
  if (!parsed.success) {
    const problem = parsed.error.issues.find((i) => ["lines", "reason", "account"].includes(i.message))?.message ?? "form";
    return data({ ok: false as const, problem, values, lines, refunded: null }, { status: 400 });
  }
  const v = parsed.data;
  const result = await attempt(() =>
    cancelOrder(context.db, context.payments, {
      orderId: id.data,
      lineIds: v.line,
      reason: v.reason,
      refundAccount: v.bank ? { bank: v.bank, number: v.account, holderName: v.holder } : undefined,
      locale: context.locale,
      operator: { actor: actorOf(op, context), override: v.override === "1" },
    }),
  );
  if (result.refused)
    return data({ ok: false as const, problem: refusalKey(result.code), values, lines, refunded: null }, { status: result.status });
  const order = await context.db.selectFrom("orders").select("currency").where("id", "=", id.data).executeTakeFirstOrThrow();
  return {
    ok: true as const,
    problem: null,
    values: null,
    lines: [],
    refunded: formatMoney(result.value.refunded, order.currency as Currency, context.locale),
  };
}

export default function OrderPage() {
  const o = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation();
  const values = (result && !result.ok && result.values) || null;
  const chosen = new Set(result && !result.ok ? result.lines : []);
  const active = o.lines.filter((l) => l.status === "active");
  const statusText = (s: string) => t(`admin.orders.status.${s}`);
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/orders">{t("admin.orders.detail.back")}</Link>
      </p>
      <h1>{t("admin.orders.detail.title", { orderNo: o.orderNo })}</h1>
      <OrdersNav />
      {result?.ok ? (
        <p role="status" className="admin-ok">
          {t("admin.orders.cancel.done", { amount: result.refunded })}
        </p>
      ) : null}
      <div className="orders-grid">
        <section aria-labelledby="order-facts">
          <h2 id="order-facts">{t("admin.orders.detail.ours")}</h2>
          <dl className="orders-facts">
            <dt>{t("admin.orders.fields.name")}</dt>
            <dd>{o.name}</dd>
            <dt>{t("admin.orders.fields.status")}</dt>
            <dd>{statusText(o.status)}</dd>
            <dt>{t("admin.orders.fields.method")}</dt>
            <dd>{o.method ? t(`admin.orders.methods.${o.method}`) : ""}</dd>
            <dt>{t("admin.orders.fields.category")}</dt>
            <dd>{t(`admin.orders.categories.${o.purchaseCategory}`)}</dd>
            <dt>{t("admin.orders.fields.placed")}</dt>
            <dd>{o.placedAt}</dd>
            <dt>{t("admin.orders.fields.paidAt")}</dt>
            <dd>{o.paidAt || t("admin.orders.detail.none")}</dd>
            <dt>{t("admin.orders.fields.amount")}</dt>
            <dd>{o.amounts.amount}</dd>
            <dt>{t("admin.orders.fields.discount")}</dt>
            <dd>{o.amounts.discount}</dd>
            <dt>{t("admin.orders.fields.vat")}</dt>
            <dd>{o.amounts.vat}</dd>
            <dt>{t("admin.orders.fields.total")}</dt>
            <dd>{o.amounts.total}</dd>
            <dt>{t("admin.orders.fields.paid")}</dt>
            <dd>{o.amounts.paid}</dd>
            <dt>{t("admin.orders.fields.refunded")}</dt>
            <dd>{o.amounts.cancelled}</dd>
            <dt>{t("admin.orders.fields.deduction")}</dt>
            <dd>{o.amounts.deduction}</dd>
            {o.failure ? (
              <>
                <dt>{t("admin.orders.fields.failure")}</dt>
                <dd>{o.failure}</dd>
              </>
            ) : null}
            {o.pendingReason ? (
              <>
                <dt>{t("admin.orders.fields.pendingReason")}</dt>
                <dd>{o.pendingReason}</dd>
              </>
            ) : null}
          </dl>
        </section>
        <section aria-labelledby="order-people">
          <h2 id="order-people">{t("admin.orders.detail.people")}</h2>
          <dl className="orders-facts">
            <dt>{t("admin.orders.fields.member")}</dt>
            <dd>{o.member ? `${o.member.email} (${o.member.nickname}, #${o.member.id})` : t("admin.orders.detail.noMember")}</dd>
            <dt>{t("admin.orders.fields.buyerEmail")}</dt>
            <dd>{o.buyerEmail}</dd>
            <dt>{t("admin.orders.fields.licenseKey")}</dt>
            <dd>{o.license ? `${o.license.serial}${o.license.alias ? ` (${o.license.alias})` : ""}` : t("admin.orders.detail.none")}</dd>
            <dt>{t("admin.orders.fields.coupon")}</dt>
            <dd>
              {o.coupon
                ? `${o.coupon.code} · ${o.coupon.held ? t("admin.orders.detail.couponHeld") : t("admin.orders.detail.couponReleased")}`
                : t("admin.orders.detail.none")}
            </dd>
            {o.vbank ? (
              <>
                <dt>{t("admin.orders.fields.vbank")}</dt>
                <dd>
                  {o.vbank.bank} {o.vbank.account}
                  {o.vbank.dueAt ? ` · ${t("admin.orders.fields.due")} ${o.vbank.dueAt}` : ""}
                </dd>
              </>
            ) : null}
            <dt>{t("admin.orders.fields.gateway")}</dt>
            <dd>
              {o.gateway} <code>{o.gatewayPaymentId}</code>
            </dd>
          </dl>
        </section>
      </div>

      <section aria-labelledby="order-compare">
        <h2 id="order-compare">{t("admin.orders.compare.heading")}</h2>
        {o.view.state === "ok" ? (
          <>
            <p className={o.view.agree ? "orders-verdict-good" : "orders-verdict-bad"} role={o.view.agree ? undefined : "alert"}>
              {o.view.agree ? t("admin.orders.compare.agree") : t("admin.orders.compare.disagree")}
            </p>
            <TableScroll>
              <table className="admin-table">
                <caption>{t("admin.orders.compare.caption")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("admin.orders.compare.field")}</th>
                    <th scope="col">{t("admin.orders.compare.ours")}</th>
                    <th scope="col">{t("admin.orders.compare.theirs")}</th>
                    <th scope="col">{t("admin.orders.compare.verdict")}</th>
                  </tr>
                </thead>
                <tbody>
                  {o.view.rows.map((r) => (
                    <tr key={r.field} className={r.agree === false ? "compare-disagree" : undefined}>
                      <th scope="row">{t(`admin.orders.compare.fields.${r.field}`)}</th>
                      <td className={r.field === "status" || r.field === "currency" ? undefined : "num"}>
                        {r.field === "status" ? statusText(String(r.ours)) : r.ours}
                      </td>
                      <td className={r.field === "status" || r.field === "currency" ? undefined : "num"}>
                        {r.field === "status" ? t(`admin.orders.gatewayStatus.${r.theirs}`) : r.theirs}
                      </td>
                      <td className={r.agree === false ? undefined : "compare-agree"}>
                        {r.agree === null
                          ? t("admin.orders.compare.notCompared")
                          : r.agree
                            ? t("admin.orders.compare.same")
                            : t("admin.orders.compare.differs")}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        ) : (
          <p className="orders-verdict-bad" role="alert">
            {t(`admin.orders.compare.${o.view.state}`)}
          </p>
        )}
      </section>

      <section aria-labelledby="order-lines">
        <h2 id="order-lines">{t("admin.orders.lines.heading")}</h2>
        <TableScroll>
          <table className="admin-table">
            <caption>{t("admin.orders.lines.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.lines.item")}</th>
                <th scope="col">{t("admin.orders.lines.type")}</th>
                <th scope="col">{t("admin.orders.lines.total")}</th>
                <th scope="col">{t("admin.orders.lines.status")}</th>
                <th scope="col">{t("admin.orders.lines.used")}</th>
                <th scope="col">{t("admin.orders.lines.refund")}</th>
                <th scope="col">{t("admin.orders.lines.rules")}</th>
              </tr>
            </thead>
            <tbody>
              {o.lines.map((l) => (
                <tr key={l.id}>
                  <th scope="row">
                    {l.title}
                    {l.code ? <span className="admin-hint"> {l.code}</span> : null}
                  </th>
                  <td>{l.itemType}</td>
                  <td className="num">{l.total}</td>
                  <td>{t(`admin.orders.lineStatus.${l.status}`)}</td>
                  <td>{l.used ? t("admin.orders.lines.yes") : t("admin.orders.lines.no")}</td>
                  <td className="num">{l.refund}</td>
                  <td>
                    {l.status !== "active"
                      ? ""
                      : l.memberRule
                        ? `${t(`admin.orders.rules.${l.memberRule}`)}${l.overridable ? ` · ${t("admin.orders.rules.overridable")}` : ""}`
                        : t("admin.orders.rules.ok")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      {active.length ? (
        <section aria-labelledby="order-cancel">
          <h2 id="order-cancel">{t("admin.orders.cancel.heading")}</h2>
          <p className="admin-hint">{t("admin.orders.cancel.lead")}</p>
          <Form method="post" className="admin-form" aria-describedby={result && !result.ok ? "cancel-problem" : undefined}>
            <input type="hidden" name="intent" value="cancel" />
            {result && !result.ok ? (
              <p id="cancel-problem" role="alert" className="admin-alert">
                {t(`admin.orders.problems.${result.problem}`)}
              </p>
            ) : null}
            <fieldset className="orders-lines">
              <legend>{t("admin.orders.cancel.lines")}</legend>
              {active.map((l) => (
                <label key={l.id}>
                  <input type="checkbox" name="line" value={l.id} defaultChecked={chosen.has(String(l.id))} /> {l.title} · {l.total}
                </label>
              ))}
            </fieldset>
            <label>
              {t("admin.orders.cancel.reason")}
              <textarea name="reason" required minLength={2} maxLength={200} rows={3} defaultValue={values?.reason ?? ""} />
            </label>
            <label className="orders-check">
              <input type="checkbox" name="override" value="1" defaultChecked={values?.override === "1"} aria-describedby="override-hint" />{" "}
              <span>{t("admin.orders.cancel.override")}</span>
            </label>
            <p id="override-hint" className="admin-hint">
              {t("admin.orders.cancel.overrideHint")}
            </p>
            {o.method === "vbank" ? (
              <fieldset>
                <legend>{t("admin.orders.cancel.account")}</legend>
                <label>
                  {t("admin.orders.cancel.bank")}
                  <input type="text" name="bank" maxLength={60} defaultValue={values?.bank ?? ""} />
                </label>
                <label>
                  {t("admin.orders.cancel.accountNumber")}
                  <input type="text" name="account" maxLength={60} inputMode="numeric" defaultValue={values?.account ?? ""} />
                </label>
                <label>
                  {t("admin.orders.cancel.holder")}
                  <input type="text" name="holder" maxLength={60} defaultValue={values?.holder ?? ""} />
                </label>
              </fieldset>
            ) : null}
            <button type="submit" disabled={busy}>
              {t("admin.orders.cancel.submit")}
            </button>
          </Form>
        </section>
      ) : null}

      <section aria-labelledby="order-refunds">
        <h2 id="order-refunds">{t("admin.orders.refunds.heading")}</h2>
        {o.refunds.length === 0 ? (
          <p>{t("admin.orders.refunds.empty")}</p>
        ) : (
          <TableScroll>
            <table className="admin-table">
              <caption>{t("admin.orders.refunds.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("admin.orders.refunds.request")}</th>
                  <th scope="col">{t("admin.orders.refunds.when")}</th>
                  <th scope="col">{t("admin.orders.refunds.gross")}</th>
                  <th scope="col">{t("admin.orders.refunds.deduction")}</th>
                  <th scope="col">{t("admin.orders.refunds.amount")}</th>
                  <th scope="col">{t("admin.orders.refunds.status")}</th>
                  <th scope="col">{t("admin.orders.refunds.reason")}</th>
                </tr>
              </thead>
              <tbody>
                {o.refunds.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">
                      <code>{r.requestId}</code>
                    </th>
                    <td className="nowrap">{r.createdAt}</td>
                    <td className="num">{r.gross}</td>
                    <td className="num">{r.deduction}</td>
                    <td className="num">{r.amount}</td>
                    <td>{t(`admin.orders.refundStatus.${r.status}`)}</td>
                    <td>{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section aria-labelledby="order-events">
        <h2 id="order-events">{t("admin.orders.events.heading")}</h2>
        {o.events.length === 0 ? (
          <p>{t("admin.orders.events.empty")}</p>
        ) : (
          <TableScroll>
            <table className="admin-table">
              <caption>{t("admin.orders.events.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("admin.orders.events.when")}</th>
                  <th scope="col">{t("admin.orders.events.type")}</th>
                  <th scope="col">{t("admin.orders.events.id")}</th>
                </tr>
              </thead>
              <tbody>
                {o.events.map((e) => (
                  <tr key={e.id}>
                    <td className="nowrap">{e.receivedAt}</td>
                    <td>{e.type}</td>
                    <td>
                      <code>{e.eventId}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </main>
  );
}
