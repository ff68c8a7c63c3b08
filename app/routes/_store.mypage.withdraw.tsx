import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { z } from "zod";
import { useTranslation } from "../i18n/react";
import { withdrawMember } from "../market/users/account.server";
import { WITHDRAW_REASONS } from "../market/users/withdraw-reasons";
import { requireViewer, signedOutCookies } from "../utils/auth.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["member", "withdraw"] };

/** Both confirmations are required (spec section 5); the reason is optional. */
export const withdrawSchema = z.object({
  confirmDelete: z.literal("on", { errorMap: () => ({ message: "withdraw.required" }) }),
  confirmLoss: z.literal("on", { errorMap: () => ({ message: "withdraw.required" }) }),
  reason: z
    .enum(WITHDRAW_REASONS)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  detail: z.string().max(500).optional(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireViewer(request, context);
  return { seo: await pageSeo(request, context, { titleKey: "withdraw.title" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const form = await request.formData();
  const parsed = withdrawSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return data(
      {
        error: "withdraw.required",
        values: {
          reason: String(form.get("reason") ?? ""),
          detail: String(form.get("detail") ?? ""),
          confirmDelete: form.get("confirmDelete") === "on",
          confirmLoss: form.get("confirmLoss") === "on",
        },
      },
      { status: 400 },
    );
  }
  await withdrawMember(context.db, viewer.id, { code: parsed.data.reason ?? "other", detail: parsed.data.detail || undefined });
  const headers = new Headers();
  for (const c of await signedOutCookies(context)) headers.append("Set-Cookie", c);
  return redirect("/mypage/withdraw-complete", { headers });
}

export default function WithdrawPage() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  useLoaderData<typeof loader>();
  const v = result?.values;
  return (
    <section className="account-page">
      <h1>{t("withdraw.title")}</h1>
      <p>{t("withdraw.lead")}</p>
      <Form method="post" aria-describedby={`${id}-error`}>
        <fieldset className="confirmations">
          <label className="check">
            <input
              type="checkbox"
              name="confirmDelete"
              defaultChecked={v?.confirmDelete}
              aria-invalid={result && !v?.confirmDelete ? true : undefined}
            />{" "}
            {t("withdraw.confirmDelete")}
          </label>
          <label className="check">
            <input
              type="checkbox"
              name="confirmLoss"
              defaultChecked={v?.confirmLoss}
              aria-invalid={result && !v?.confirmLoss ? true : undefined}
            />{" "}
            {t("withdraw.confirmLoss")}
          </label>
        </fieldset>
        <p id={`${id}-error`} className="field-error" role="alert">
          {result?.error ? t(result.error) : null}
        </p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t("withdraw.reason")}</label>
          <select id={`${id}-reason`} name="reason" defaultValue={v?.reason ?? ""}>
            <option value="">—</option>
            {WITHDRAW_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`withdraw.reasons.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-detail`}>{t("withdraw.detail")}</label>
          <textarea id={`${id}-detail`} name="detail" maxLength={500} rows={3} defaultValue={v?.detail ?? ""} />
        </div>
        <button type="submit" className="button button-danger" disabled={navigation.state === "submitting"}>
          {t("withdraw.submit")}
        </button>
      </Form>
    </section>
  );
}
