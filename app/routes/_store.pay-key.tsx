import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { PaySteps } from "../components/pay";
import { RequestSteps } from "../components/request-steps";
import { useTranslation } from "../i18n/react";
import { MarketError } from "../market/errors";
import { RateLimited } from "../market/rate-limits.server";
import { lookupBusinessKey } from "../market/requests/lookup.server";
import { fieldErrors, keyLookupSchema } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { requirePay, savePay } from "../utils/pay-session.server";
import { refusalText, retryAfterHeaders, withRetryAfter } from "../utils/rate-limit.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "limits", "orders", "pay", "purchase", "request"] };

export const headers = withRetryAfter;

/**
 * The key lookup both business flows start with (spec section 5): a key-only user enters the licence key and its
 * licensing e-mail. A direct purchase then goes to the payment method (step 2 of 4); a purchase request to its form
 * (step 1 of 3). No login.
 */
async function keyFlow(request: Request, context: LoaderFunctionArgs["context"]) {
  const pay = await requirePay(request, context);
  if (pay.data.flow !== "direct" && pay.data.flow !== "request") throw redirect("/pay02");
  return { pay, flow: pay.data.flow };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { flow } = await keyFlow(request, context);
  return { flow, seo: await pageSeo(request, context, { titleKey: flow === "request" ? "request.title" : "pay.title" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const { pay, flow } = await keyFlow(request, context);
  const form = Object.fromEntries(await request.formData());
  const values = { serial: String(form.serial ?? ""), email: String(form.email ?? "") };
  const parsed = keyLookupSchema.safeParse(form);
  if (!parsed.success) {
    return data({ errors: fieldErrors(parsed.error), values, failure: null }, { status: 400 });
  }
  try {
    const key = await lookupBusinessKey(context.db, { ...parsed.data, ip: context.clientIp });
    const cookie = await savePay(context, pay, { keyLicenseId: key.licenseId });
    return redirect(flow === "request" ? "/request" : "/pay03", { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (!(error instanceof MarketError)) throw error;
    // Over a limit: which one, and when to try again (429 with Retry-After).
    if (error instanceof RateLimited)
      return data(
        { errors: {}, values, failure: error.code, limit: refusalText(context.locale, error) },
        { status: 429, headers: retryAfterHeaders(error.retryAfterMs) },
      );
    return data({ errors: {}, values, failure: error.code }, { status: error.status });
  }
}

export default function PayKey() {
  const { flow } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const errors: Record<string, string> = result?.errors ?? {};
  return (
    <section className="pay-page">
      <h1>{flow === "request" ? t("request.title") : t("pay.title")}</h1>
      {flow === "request" ? <RequestSteps current={1} /> : <PaySteps current={2} />}
      <h2 id={`${id}-h`}>{t("request.keyTitle")}</h2>
      <p className="muted">{flow === "request" ? t("request.keyLeadRequest") : t("request.keyLeadDirect")}</p>
      <Form method="post" className="pay-form" aria-labelledby={`${id}-h`} aria-describedby={`${id}-failure`}>
        <label htmlFor={`${id}-serial`} className="field-label">
          {t("request.serial")}
        </label>
        <input
          id={`${id}-serial`}
          name="serial"
          required
          maxLength={64}
          autoComplete="off"
          defaultValue={result?.values.serial ?? ""}
          aria-invalid={errors.serial || result?.failure ? true : undefined}
          aria-describedby={`${id}-serial-error`}
        />
        <p id={`${id}-serial-error`} className="field-error" role="alert">
          {errors.serial ? t(errors.serial) : ""}
        </p>
        <label htmlFor={`${id}-email`} className="field-label">
          {t("request.licenseEmail")}
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          defaultValue={result?.values.email ?? ""}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={`${id}-email-error`}
        />
        <p id={`${id}-email-error`} className="field-error" role="alert">
          {errors.email ? t(errors.email) : ""}
        </p>
        <p id={`${id}-failure`} className="field-error" role="alert">
          {result && "limit" in result ? String(result.limit) : result?.failure ? t(`pay.error.${result.failure}`) : ""}
        </p>
        <p className="pay-actions">
          <Link to="/cart" className="button button-ghost">
            {t("pay.backToCart")}
          </Link>
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            {t("request.lookUp")}
          </button>
        </p>
      </Form>
    </section>
  );
}
