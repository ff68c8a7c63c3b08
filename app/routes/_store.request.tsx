import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { OverlapNotice } from "../components/overlap-notice";
import { OrderSummary } from "../components/pay";
import { RequestFields } from "../components/request-fields";
import { RequestSteps } from "../components/request-steps";
import { useTranslation } from "../i18n/react";
import { checkoutOverlap } from "../market/downloads/overlap.server";
import { MarketError } from "../market/errors";
import { currencyFor } from "../market/money";
import { quoteCheckout } from "../market/orders/checkout.server";
import { RateLimited } from "../market/rate-limits.server";
import { businessKeyById } from "../market/requests/lookup.server";
import { createPurchaseRequest } from "../market/requests/requests.server";
import { cartOwner } from "../utils/cart-owner.server";
import { chosenIds, fieldErrors, requestFormSchema } from "../utils/input.server";
import { publicOrigin } from "../utils/origin.server";
import { overlapLines } from "../utils/overlap-lines.server";
import { pageSeo } from "../utils/page.server";
import { clearPay, requirePay, savePay, savePayItems } from "../utils/pay-session.server";
import { refusalText, retryAfterHeaders, withRetryAfter } from "../utils/rate-limit.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "cartCare", "item", "licenses", "limits", "orders", "pay", "price", "purchase", "request"] };

export const headers = withRetryAfter;

/** The request being written: items chosen in the cart and a business key found on /pay-key. */
async function requestInProgress(request: Request, context: LoaderFunctionArgs["context"]) {
  const pay = await requirePay(request, context);
  if (pay.data.flow !== "request") throw redirect("/pay01");
  if (!pay.data.keyLicenseId) throw redirect("/pay-key");
  if (pay.data.requestId) throw redirect("/requestComp");
  const key = await businessKeyById(context.db, pay.data.keyLicenseId);
  return { pay, key };
}

/**
 * Step 2 of the purchase request (spec sections 2 and 5): the items with their prices and total, the requester's
 * e-mail (required, valid) and a message of up to 100 characters naming the company and the requester. Works
 * without JavaScript and keeps what was typed on error.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pay, key } = await requestInProgress(request, context);
  const quote = await quoteCheckout(context.db, { userType: 2 }, pay.items, currencyFor(context.locale), context.locale).catch((error) => {
    if (error instanceof MarketError) return error.code;
    throw error;
  });
  // The key already holds some items, or a waiting request asks for them (issue 24, point 3).
  const lines = typeof quote === "string" ? [] : quote.lines;
  const { overlaps } = await checkoutOverlap(
    context.db,
    { flow: "request", keyLicenseId: key.licenseId },
    null,
    lines.map((l) => l.refId),
  );
  return {
    overlap: overlapLines(overlaps, context.locale, (id) => lines.find((l) => l.refId === id)?.title),
    quote: typeof quote === "string" ? null : quote,
    error: typeof quote === "string" ? quote : null,
    key: { serial: key.serial, organization: key.organization, email: key.email },
    locale: context.locale,
    seo: await pageSeo(request, context, { titleKey: "request.title" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const { pay, key } = await requestInProgress(request, context);
  const formData = await request.formData();
  if (formData.get("intent") === "drop") {
    // "Remove these": the items leave this request (the cart is not touched).
    const drop = new Set(chosenIds(formData, "drop"));
    const items = pay.items.filter((i) => !(i.kind === "content" && drop.has(i.id)));
    if (!items.length) return redirect("/cart", { headers: { "Set-Cookie": await clearPay(context) } });
    return redirect("/request", { headers: { "Set-Cookie": await savePayItems(context, pay, items) } });
  }
  const form = Object.fromEntries(formData);
  const values = { request_email: String(form.request_email ?? ""), message: String(form.message ?? "") };
  const parsed = requestFormSchema.safeParse(form);
  if (!parsed.success) {
    return data({ errors: fieldErrors(parsed.error), values, failure: null }, { status: 400 });
  }
  try {
    const made = await createPurchaseRequest(context.db, {
      key,
      requestEmail: parsed.data.request_email,
      message: parsed.data.message,
      contentIds: pay.items.flatMap((i) => (i.kind === "content" ? [i.id] : [])),
      // The requested items leave the requester's cart with the request (issue 24, point 5).
      cart: (await cartOwner(request, context)).owner,
      locale: context.locale,
      origin: publicOrigin(request, context),
      ip: context.clientIp,
    });
    const cookie = await savePay(context, pay, { requestId: made.id, quotePath: made.quotePath, leftCart: made.leftCart });
    // One address for the finished request (a reload or a Back lands on the same page: navigation-history e2e).
    return redirect("/requestComp", { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (!(error instanceof MarketError)) throw error;
    // Over a limit: which one (the key's, the company's, the address's), and when to try again.
    if (error instanceof RateLimited)
      return data(
        { errors: {}, values, failure: error.code, limit: refusalText(context.locale, error) },
        { status: 429, headers: retryAfterHeaders(error.retryAfterMs) },
      );
    return data({ errors: {}, values, failure: error.code }, { status: error.status });
  }
}

export default function RequestForm() {
  const { quote, error, key, locale, overlap } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const errors: Record<string, string> = result?.errors ?? {};
  return (
    <section className="pay-page">
      <h1>{t("request.title")}</h1>
      <RequestSteps current={2} />
      <p className="notice-box" role="note">
        {t("request.toRepresentative", { serial: key.serial, organization: key.organization ?? "" })}
      </p>
      <OverlapNotice lines={overlap} serial={key.serial} intent="drop" field="drop" />
      {error || !quote ? (
        <p className="notice-box error" role="alert">
          {t(`pay.error.${error ?? "CHECKOUT_EMPTY"}`)}
        </p>
      ) : (
        <OrderSummary
          lines={quote.lines.map((l) => ({ ...l, key: `${l.kind}-${l.refId}` }))}
          totals={quote.totals}
          currency={quote.currency}
          locale={locale}
        />
      )}
      <Form method="post" className="pay-form" aria-describedby={`${id}-failure`}>
        <RequestFields values={result?.values} errors={errors} />
        <p id={`${id}-failure`} className="field-error" role="alert">
          {result && "limit" in result ? String(result.limit) : result?.failure ? t(`pay.error.${result.failure}`) : ""}
        </p>
        <p className="pay-actions">
          <Link to="/pay-key" className="button button-ghost">
            {t("pay.back")}
          </Link>
          <button type="submit" className="button" disabled={navigation.state === "submitting" || !quote}>
            {t("request.send")}
          </button>
        </p>
      </Form>
    </section>
  );
}
