import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { FormErrors, TextField } from "../components/forms";
import { useTranslation } from "../i18n/react";
import { admitJoin } from "../market/rate-limits.server";
import { joinMarket } from "../market/users/auth.server";
import { redirectSignedIn } from "../utils/auth.server";
import { signedInAddress } from "../utils/market-query";
import { pageSeo } from "../utils/page.server";
import { retryAfterHeaders, tooManyText, withRetryAfter } from "../utils/rate-limit.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";
import { readShopper } from "../utils/shopper.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["auth", "limits"] };

export const joinSchema = z.object({
  email: z
    .string({ required_error: "auth.emailRequired" })
    .trim()
    .min(1, "auth.emailRequired")
    .email("auth.emailInvalid")
    .max(254, "auth.emailInvalid"),
  password: z.string({ required_error: "auth.passwordRequired" }).min(8, "auth.passwordTooShort").max(128, "auth.passwordTooLong"),
  nickname: z.string({ required_error: "auth.nicknameRequired" }).trim().min(1, "auth.nicknameRequired").max(30, "auth.nicknameTooLong"),
  marketEmailAgree: z.literal("on").optional(),
  agreeTerms: z.literal("on", { errorMap: () => ({ message: "auth.agreeRequired" }) }),
  redirectTo: z.string().optional(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await readShopper(request, context);
  if (viewer) throw redirect("/");
  const redirectTo = safePath(new URL(request.url).searchParams.get("redirectTo"), "/");
  return { redirectTo, seo: await pageSeo(request, context, { titleKey: "auth.joinTitle" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export const headers = withRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: joinSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { ngt } = await readShopper(request, context);
  const v = submission.value;
  const admitted = await admitJoin(context.db, context.clientIp, v.email);
  if (!admitted.allowed)
    return data(submission.reply({ formErrors: [tooManyText(context.locale, admitted.retryAfterMs)], hideFields: ["password"] }), {
      status: 429,
      headers: retryAfterHeaders(admitted.retryAfterMs),
    });
  const result = await joinMarket(context.db, {
    email: v.email,
    password: v.password,
    nickname: v.nickname,
    marketEmailAgree: v.marketEmailAgree === "on",
    language: context.locale,
    ngt,
    ip: context.clientIp,
  });
  const welcome = `/welcome?join_market=1&redirectTo=${encodeURIComponent(safePath(v.redirectTo, "/"))}`;
  // An e-mail that already has an account goes the same way as a join, to the same address, without a session:
  // /welcome asks a visitor to sign in, and the address's owner is mailed that someone tried (docs/decisions.md,
  // 2026-11-28). The page says nothing of the address either way.
  if (!result.ok) return redirect(signedInAddress(welcome, 1));
  return redirectSignedIn(context, result, welcome);
}

export default function JoinPage() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: joinSchema }),
  });
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/join");
  const agree = getInputProps(fields.agreeTerms, { type: "checkbox", ariaAttributes: false });
  const news = getInputProps(fields.marketEmailAgree, { type: "checkbox", ariaAttributes: false });
  return (
    <section className="auth-page">
      <h1>{t("auth.joinTitle")}</h1>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField field={fields.email} label={t("auth.email")} type="email" autoComplete="email" />
        <TextField
          field={fields.password}
          label={t("auth.password")}
          type="password"
          autoComplete="new-password"
          hint={t("auth.passwordHint")}
        />
        <TextField field={fields.nickname} label={t("auth.nickname")} autoComplete="nickname" />
        <div className="field field-check">
          <label>
            <input {...news} key={news.key} /> {t("auth.marketEmailAgree")}
          </label>
        </div>
        <div className="field field-check">
          <label>
            <input
              {...agree}
              key={agree.key}
              aria-invalid={fields.agreeTerms.errors?.length ? true : undefined}
              aria-describedby={`${fields.agreeTerms.id}-error`}
            />{" "}
            {t("auth.agreeTerms")} (<Link to="/policy?type=terms">{t("footer.terms")}</Link>,{" "}
            <Link to="/policy?type=privacy">{t("footer.privacy")}</Link>)
          </label>
          <p id={`${fields.agreeTerms.id}-error`} className="field-error" aria-live="polite">
            {fields.agreeTerms.errors?.map((e) => t(e)).join(" ")}
          </p>
        </div>
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          {t("auth.join")}
        </button>
      </Form>
      <p className="muted">
        <Link to={`/login?redirectTo=${encodeURIComponent(redirectTo)}`}>{t("auth.haveAccount")}</Link>
      </p>
    </section>
  );
}
