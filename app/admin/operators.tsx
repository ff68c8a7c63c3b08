import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { createOperator, listOperators, updateOperator } from "../market/operators/accounts.server";
import { OPERATOR_ROLES } from "../market/operators/roles";
import { seoulText } from "../utils/dates";
import { formObject, operatorCreateSchema, operatorUpdateSchema } from "./forms.server";
import { actorOf, domainCall, requireOperator } from "./guard.server";
import { TableScroll } from "./parts";

export { AdminError as ErrorBoundary } from "./parts";

/** /admin/operators (admin only): operator accounts, their roles and whether they may sign in; add one. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireOperator(request, context, "operators");
  const rows = await listOperators(context.db);
  return {
    me: me.id,
    rows: rows.map((r) => ({ ...r, lastSignInAt: r.lastSignInAt ? seoulText(r.lastSignInAt, context.locale, "long") : null })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const me = await requireOperator(request, context, "operators");
  const form = formObject(await request.formData());
  if (form.intent === "update") {
    const parsed = operatorUpdateSchema.safeParse(form);
    if (!parsed.success) return data({ ok: false as const, problem: "role", values: {} as Record<string, string> }, { status: 400 });
    await domainCall(() =>
      updateOperator(context.db, parsed.data.id, { role: parsed.data.role, active: parsed.data.active === "1" }, actorOf(me, context)),
    );
    return { ok: true as const, created: null, problem: null, values: {} };
  }
  const parsed = operatorCreateSchema.safeParse(form);
  const values = { email: form.email ?? "", name: form.name ?? "", role: form.role ?? "" };
  if (!parsed.success) return data({ ok: false as const, problem: "email", values }, { status: 400 });
  const result = await createOperator(context.db, parsed.data, actorOf(me, context));
  if (!result.ok) return data({ ok: false as const, problem: result.problem, values }, { status: result.problem === "taken" ? 409 : 400 });
  return { ok: true as const, created: parsed.data.email.trim().toLowerCase(), problem: null, values: {} };
}

export default function Operators() {
  const { me, rows } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const values: Record<string, string> = (result && !result.ok && result.values) || {};
  return (
    <main className="admin-page">
      <h1>{t("admin.core.operators.title")}</h1>
      <p>{t("admin.core.operators.lead")}</p>
      {result?.ok ? (
        <p role="status" className="admin-ok">
          {result.created ? t("admin.core.operators.create.created", { email: result.created }) : t("admin.core.saved")}
        </p>
      ) : null}
      <TableScroll>
        <table className="admin-table">
          <caption>{t("admin.core.operators.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("admin.core.operators.columns.email")}</th>
              <th scope="col">{t("admin.core.operators.columns.name")}</th>
              <th scope="col">{t("admin.core.operators.columns.lastSignIn")}</th>
              <th scope="col">{t("admin.core.operators.columns.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{r.email}</td>
                <td>{r.name}</td>
                <td>{r.lastSignInAt ?? t("admin.core.operators.never")}</td>
                <td>
                  {r.id === me ? (
                    <span>
                      {t(`admin.core.roles.${r.role}`)} · {t("admin.core.operators.self")}
                    </span>
                  ) : (
                    <Form method="post" className="admin-inline-form">
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="id" value={r.id} />
                      <label>
                        <span className="visually-hidden">
                          {t("admin.core.operators.columns.role")} · {r.email}
                        </span>
                        <select name="role" defaultValue={r.role}>
                          {OPERATOR_ROLES.map((role) => (
                            <option key={role} value={role}>
                              {t(`admin.core.roles.${role}`)}
                            </option>
                          ))}
                        </select>
                      </label>
                      <label>
                        <input type="checkbox" name="active" value="1" defaultChecked={r.active} />{" "}
                        {t("admin.core.operators.columns.active")}
                      </label>
                      <button type="submit">{t("admin.core.operators.save")}</button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <h2>{t("admin.core.operators.create.heading")}</h2>
      <Form method="post" className="admin-form" aria-describedby={result && !result.ok ? "operator-problem" : undefined}>
        <input type="hidden" name="intent" value="create" />
        {result && !result.ok && result.problem ? (
          <p id="operator-problem" role="alert" className="admin-alert">
            {t(`admin.core.operators.problems.${result.problem}`)}
          </p>
        ) : null}
        <label>
          {t("admin.core.operators.create.email")}
          <input type="email" name="email" required defaultValue={values.email} autoComplete="off" />
        </label>
        <label>
          {t("admin.core.operators.create.name")}
          <input type="text" name="name" required maxLength={60} defaultValue={values.name} autoComplete="off" />
        </label>
        <label>
          {t("admin.core.operators.create.password")}
          <input type="password" name="password" required minLength={10} autoComplete="new-password" aria-describedby="password-hint" />
        </label>
        <p id="password-hint" className="admin-hint">
          {t("admin.core.operators.create.passwordHint")}
        </p>
        <label>
          {t("admin.core.operators.create.role")}
          <select name="role" defaultValue={values.role || "support"}>
            {OPERATOR_ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`admin.core.roles.${role}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t("admin.core.operators.create.submit")}</button>
      </Form>
    </main>
  );
}
