import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";
import { memberDownloads } from "../../market/downloads/library.server";
import { listMemberLicenses } from "../../market/licenses.server";
import { formatMoney } from "../../market/money";
import { listOrders, listPasses } from "../../market/orders/history.server";
import { listInquiries } from "../../market/support.server";
import { getAccountForOperator, withdrawMember } from "../../market/users/account.server";
import { memberSince } from "../../market/users/lookup.server";
import { WITHDRAW_REASONS } from "../../market/users/withdraw-reasons";
import membersStyles from "../../styles/admin-members.css";
import { seoulText } from "../../utils/dates";
import { formObject } from "../forms.server";
import { actorOf, domainCall, requireOperator } from "../guard.server";
import { TableScroll } from "../parts";
import { memberIdSchema, memberWithdrawSchema, withdrawProblem } from "./members.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "member", "passes"] };

export { AdminError as ErrorBoundary } from "../parts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: membersStyles }];

const LIST_LIMIT = 10;

function memberId(raw: string | undefined): number {
  const id = memberIdSchema.safeParse(raw);
  if (!id.success) throw data({ code: "NOT_FOUND" }, { status: 404 });
  return id.data;
}

/**
 * /admin/members/:id (support, admin): the member's profile, licences, orders, passes, downloads and inquiries; each
 * view is a line of the audit log.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const op = await requireOperator(request, context, "members");
  const id = memberId(params.id);
  const { db, locale } = context;
  const account = await domainCall(() => getAccountForOperator(db, id, actorOf(op, context)));
  const [since, licences, orders, passes, downloads, inquiries] = await Promise.all([
    memberSince(db, id),
    listMemberLicenses(db, id),
    listOrders(db, { userId: id }, locale, { limit: LIST_LIMIT }),
    listPasses(db, { userId: id }),
    memberDownloads(db, id, locale, LIST_LIMIT),
    listInquiries(db, id, { offset: 0, limit: LIST_LIMIT }),
  ]);
  const day = (iso: string | null) => (iso ? seoulText(iso, locale, "date") : "");
  return {
    member: {
      ...account,
      joined: since ? seoulText(since.createdAt, locale, "long") : "",
      language: since?.language ?? "",
    },
    licences: licences.map((l) => ({ ...l, validUntil: day(l.validUntil) })),
    orders: {
      total: orders.total_count,
      rows: orders.list.map((o) => ({
        id: o.id,
        orderNo: o.orderNo,
        name: o.name,
        status: o.status,
        category: o.purchaseCategory,
        date: seoulText(o.paidAt ?? o.createdAt, locale),
        total: formatMoney(o.total, o.currency, locale),
      })),
    },
    passes: passes.map((p) => ({ ...p, purchasedAt: day(p.purchasedAt), expiresAt: day(p.expiresAt) })),
    downloads: { total: downloads.total, rows: downloads.list.map((d) => ({ ...d, createdAt: seoulText(d.createdAt, locale) })) },
    inquiries: {
      total: inquiries.total_count,
      rows: inquiries.list.map((i) => ({ id: i.id, title: i.title, status: i.status, category: i.category, date: day(i.created_at) })),
    },
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const op = await requireOperator(request, context, "members");
  const id = memberId(params.id);
  const form = formObject(await request.formData());
  const values = {
    code: form.code ?? "",
    reason: form.reason ?? "",
    confirmDelete: form.confirmDelete === "on" ? "on" : "",
    confirmLoss: form.confirmLoss === "on" ? "on" : "",
  };
  const parsed = memberWithdrawSchema.safeParse(form);
  if (!parsed.success) return data({ problem: withdrawProblem(parsed.error), values }, { status: 400 });
  await domainCall(() =>
    withdrawMember(context.db, id, { code: parsed.data.code }, new Date(), { actor: actorOf(op, context), reason: parsed.data.reason }),
  );
  return redirect("/admin/members?withdrawn=1");
}

export default function MemberDetail() {
  const { member, licences, orders, passes, downloads, inquiries } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const v: Record<string, string> = result?.values ?? {};
  const busy = navigation.state === "submitting";
  return (
    <main className="admin-page">
      <p>
        <Link to="/admin/members">{t("admin.members.back")}</Link>
      </p>
      <h1>{t("admin.members.detail.title", { nickname: member.nickname })}</h1>
      <dl className="member-profile">
        <dt>{t("admin.members.columns.email")}</dt>
        <dd>{member.email}</dd>
        <dt>{t("admin.members.columns.nickname")}</dt>
        <dd>{member.nickname}</dd>
        <dt>{t("admin.members.columns.type")}</dt>
        <dd>
          {t(`admin.members.userType.${member.userType === 2 ? "business" : "individual"}`)}
          {member.organization ? ` · ${member.organization}` : ""}
        </dd>
        <dt>{t("admin.members.columns.joined")}</dt>
        <dd>{member.joined}</dd>
        <dt>{t("admin.members.detail.language")}</dt>
        <dd>{member.language}</dd>
        <dt>{t("admin.members.detail.newsletter")}</dt>
        <dd>{member.marketEmailAgree ? t("admin.members.detail.yes") : t("admin.members.detail.no")}</dd>
        <dt>{t("admin.members.detail.youtube")}</dt>
        <dd>{member.youtubeChannelId ?? t("admin.members.detail.none")}</dd>
      </dl>

      <h2 id="member-licences">{t("admin.members.licences.heading")}</h2>
      <TableScroll>
        <table className="admin-table">
          <caption>{t("admin.members.licences.caption", { count: licences.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.members.licences.serial")}</th>
              <th scope="col">{t("admin.members.licences.alias")}</th>
              <th scope="col">{t("admin.members.licences.email")}</th>
              <th scope="col">{t("admin.members.licences.type")}</th>
              <th scope="col">{t("admin.members.licences.status")}</th>
              <th scope="col">{t("admin.members.licences.pc")}</th>
              <th scope="col">{t("admin.members.licences.until")}</th>
            </tr>
          </thead>
          <tbody>
            {licences.length === 0 ? (
              <tr>
                <td colSpan={7}>{t("admin.members.licences.none")}</td>
              </tr>
            ) : (
              licences.map((l) => (
                <tr key={l.id}>
                  <td className="nowrap">{l.serial}</td>
                  <td>{l.alias ?? ""}</td>
                  <td>{l.email}</td>
                  <td>{t(`admin.members.licenceType.${l.licenseType}`)}</td>
                  <td>{t(`admin.members.licenceStatus.${l.status}`)}</td>
                  <td>{l.pcName ?? ""}</td>
                  <td className="nowrap">{l.validUntil || t("admin.members.licences.noExpiry")}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>

      <h2 id="member-orders">{t("admin.members.orders.heading")}</h2>
      <TableScroll>
        <table className="admin-table">
          <caption>{t("admin.members.orders.caption", { count: orders.total, shown: orders.rows.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.members.orders.no")}</th>
              <th scope="col">{t("admin.members.orders.date")}</th>
              <th scope="col">{t("admin.members.orders.name")}</th>
              <th scope="col">{t("admin.members.orders.category")}</th>
              <th scope="col">{t("admin.members.orders.status")}</th>
              <th scope="col" className="num">
                {t("admin.members.orders.total")}
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.rows.length === 0 ? (
              <tr>
                <td colSpan={6}>{t("admin.members.orders.none")}</td>
              </tr>
            ) : (
              orders.rows.map((o) => (
                <tr key={o.id}>
                  <td className="nowrap">{o.orderNo}</td>
                  <td className="nowrap">{o.date}</td>
                  <td>{o.name}</td>
                  <td>{t(`admin.members.orders.categories.${o.category}`)}</td>
                  <td>{t(`admin.members.orders.statuses.${o.status}`)}</td>
                  <td className="num">{o.total}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>

      <h2 id="member-passes">{t("admin.members.passes.heading")}</h2>
      <TableScroll>
        <table className="admin-table">
          <caption>{t("admin.members.passes.caption", { count: passes.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.members.passes.group")}</th>
              <th scope="col">{t("admin.members.passes.remaining")}</th>
              <th scope="col">{t("admin.members.passes.status")}</th>
              <th scope="col">{t("admin.members.passes.purchased")}</th>
              <th scope="col">{t("admin.members.passes.expires")}</th>
              <th scope="col">{t("admin.members.passes.licence")}</th>
            </tr>
          </thead>
          <tbody>
            {passes.length === 0 ? (
              <tr>
                <td colSpan={6}>{t("admin.members.passes.none")}</td>
              </tr>
            ) : (
              passes.map((p) => (
                <tr key={p.id}>
                  <td>{t(`admin.members.passes.groups.${p.group}`)}</td>
                  <td>
                    {p.remaining} / {p.total}
                  </td>
                  <td>{t(`admin.members.passes.statuses.${p.status}`)}</td>
                  <td className="nowrap">{p.purchasedAt}</td>
                  <td className="nowrap">{p.expiresAt}</td>
                  <td>{p.license ?? ""}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>

      <h2 id="member-downloads">{t("admin.members.downloads.heading")}</h2>
      <TableScroll>
        <table className="admin-table">
          <caption>{t("admin.members.downloads.caption", { count: downloads.total, shown: downloads.rows.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.members.downloads.date")}</th>
              <th scope="col">{t("admin.members.downloads.content")}</th>
              <th scope="col">{t("admin.members.downloads.kind")}</th>
              <th scope="col">{t("admin.members.downloads.licence")}</th>
            </tr>
          </thead>
          <tbody>
            {downloads.rows.length === 0 ? (
              <tr>
                <td colSpan={4}>{t("admin.members.downloads.none")}</td>
              </tr>
            ) : (
              downloads.rows.map((d) => (
                <tr key={d.id}>
                  <td className="nowrap">{d.createdAt}</td>
                  <td>
                    {d.title} <span className="admin-hint">{d.code}</span>
                  </td>
                  <td>{t(`admin.members.downloads.kinds.${d.kind}`)}</td>
                  <td className="nowrap">{d.serial ?? ""}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>

      <h2 id="member-inquiries">{t("admin.members.inquiries.heading")}</h2>
      <TableScroll>
        <table className="admin-table">
          <caption>{t("admin.members.inquiries.caption", { count: inquiries.total, shown: inquiries.rows.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.members.inquiries.date")}</th>
              <th scope="col">{t("admin.members.inquiries.subject")}</th>
              <th scope="col">{t("admin.members.inquiries.status")}</th>
            </tr>
          </thead>
          <tbody>
            {inquiries.rows.length === 0 ? (
              <tr>
                <td colSpan={3}>{t("admin.members.inquiries.none")}</td>
              </tr>
            ) : (
              inquiries.rows.map((i) => (
                <tr key={i.id}>
                  <td className="nowrap">{i.date}</td>
                  <td>
                    <Link to={`/admin/inquiries/${i.id}`}>{i.title}</Link>
                  </td>
                  <td>{t(`admin.members.inquiries.statuses.${i.status}`)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>

      <section className="member-withdraw" aria-labelledby="member-withdraw">
        <h2 id="member-withdraw">{t("admin.members.withdraw.heading")}</h2>
        <p>{t("admin.members.withdraw.lead")}</p>
        <Form method="post" className="admin-form" aria-describedby={result ? "withdraw-problem" : undefined}>
          <input type="hidden" name="intent" value="withdraw" />
          {result ? (
            <p id="withdraw-problem" role="alert" className="admin-alert">
              {t(`admin.members.withdraw.problems.${result.problem}`)}
            </p>
          ) : null}
          <label>
            {t("admin.members.withdraw.code")}
            <select name="code" defaultValue={v.code || "other"}>
              {WITHDRAW_REASONS.map((r) => (
                <option key={r} value={r}>
                  {t(`admin.members.withdraw.codes.${r}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("admin.members.withdraw.reason")}
            <textarea name="reason" rows={3} maxLength={500} required defaultValue={v.reason} aria-describedby="withdraw-reason-hint" />
          </label>
          <p id="withdraw-reason-hint" className="admin-hint">
            {t("admin.members.withdraw.reasonHint")}
          </p>
          <fieldset>
            <legend>{t("admin.members.withdraw.confirmLegend")}</legend>
            <label className="member-check">
              <input type="checkbox" name="confirmDelete" value="on" required defaultChecked={v.confirmDelete === "on"} />{" "}
              {t("admin.members.withdraw.confirmDelete")}
            </label>
            <label className="member-check">
              <input type="checkbox" name="confirmLoss" value="on" required defaultChecked={v.confirmLoss === "on"} />{" "}
              {t("admin.members.withdraw.confirmLoss")}
            </label>
          </fieldset>
          <button type="submit" className="member-danger" disabled={busy}>
            {t("admin.members.withdraw.submit")}
          </button>
        </Form>
      </section>
    </main>
  );
}
