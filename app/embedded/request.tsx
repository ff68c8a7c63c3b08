import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { PriceTag } from "../components/content-card";
import { OverlapNotice } from "../components/overlap-notice";
import { QuoteLink } from "../components/quote-link";
import { RequestFields } from "../components/request-fields";
import { fixedT } from "../i18n/i18n.server";
import { useTranslation } from "../i18n/react";
import { isPayable, listCart, payableCartContents, removeFromCart } from "../market/cart.server";
import { checkoutOverlap } from "../market/downloads/overlap.server";
import { MarketError } from "../market/errors";
import { formatMoney } from "../market/money";
import { RateLimited } from "../market/rate-limits.server";
import { businessKeyOfLicense } from "../market/requests/lookup.server";
import { createPurchaseRequest } from "../market/requests/requests.server";
import { cartOwner } from "../utils/cart-owner.server";
import { chosenIds, fieldErrors, requestFormSchema } from "../utils/input.server";
import { publicOrigin } from "../utils/origin.server";
import { overlapLines } from "../utils/overlap-lines.server";
import { refusalText, retryAfterHeaders, withRetryAfter } from "../utils/rate-limit.server";
import { requireEmbeddedLicense } from "./licence.server";
import { EmbeddedErrorBoundary, embeddedMeta } from "./route-parts";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "cartCare", "item", "licenses", "limits", "orders", "pay", "purchase", "request"] };

export const headers = withRetryAfter;

/** The editor's business key (its headers say which, so nothing is typed) and the cart the webview holds. */
async function requestContext(request: Request, context: LoaderFunctionArgs["context"]) {
  const license = await requireEmbeddedLicense(request, context);
  const key = await businessKeyOfLicense(context.db, license).catch((error) => {
    if (error instanceof MarketError) return error.code;
    throw error;
  });
  const { owner } = await cartOwner(request, context);
  return { license, key, owner };
}

/**
 * The webview's purchase request (spec sections 1 and 5): a B2BG product user asks the representative account that
 * owns the editor's key to pay for items in the cart; the quote link follows. Without JavaScript it is a plain form.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { key, owner } = await requestContext(request, context);
  const cart = await listCart(context.db, owner, context.locale);
  const lines = cart.lines.filter(isPayable);
  // What the editor's key already holds, or a waiting request asks for (issue 24, point 3).
  const { overlaps } =
    typeof key === "string"
      ? { overlaps: [] }
      : await checkoutOverlap(
          context.db,
          { flow: "request", keyLicenseId: key.licenseId },
          null,
          lines.map((l) => l.id),
        );
  return {
    overlap: overlapLines(
      overlaps,
      context.locale,
      (id) => lines.find((l) => l.id === id)?.title,
      (id) => lines.find((l) => l.id === id)?.cartId,
    ),
    serial: typeof key === "string" ? null : key.serial,
    title: `${fixedT(context.locale)("embedded.request")} | ${fixedT(context.locale)("brand")}`,
    refusal: typeof key === "string" ? key : null,
    organization: typeof key === "string" ? null : key.organization,
    lines,
    locale: context.locale,
  };
}

export const meta = embeddedMeta;

export async function action({ request, context }: ActionFunctionArgs) {
  const { key, owner } = await requestContext(request, context);
  const form = await request.formData();
  if (form.get("intent") === "removeHeld") {
    // "Remove these": the lines the notice listed leave the webview's cart.
    await removeFromCart(context.db, owner, chosenIds(form, "held_id"));
    return redirect("/mypage/sw/request");
  }
  const values = { request_email: String(form.get("request_email") ?? ""), message: String(form.get("message") ?? "") };
  if (typeof key === "string") return data({ errors: {}, values, failure: key, done: null }, { status: 409 });
  const parsed = requestFormSchema.safeParse(values);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values, failure: null, done: null }, { status: 400 });
  try {
    const made = await createPurchaseRequest(context.db, {
      key,
      requestEmail: parsed.data.request_email,
      message: parsed.data.message,
      contentIds: await payableCartContents(context.db, owner, chosenIds(form, "cart_id")),
      cart: owner,
      locale: context.locale,
      origin: publicOrigin(request, context),
      ip: context.clientIp,
    });
    return data({
      errors: {},
      values,
      failure: null,
      done: { requestNo: made.requestNo, quotePath: made.quotePath, total: made.total, currency: made.currency, leftCart: made.leftCart },
    });
  } catch (error) {
    if (!(error instanceof MarketError)) throw error;
    // Over a limit: which one (the key's, the company's, the address's), and when to try again.
    if (error instanceof RateLimited)
      return data(
        { errors: {}, values, failure: error.code, done: null, limit: refusalText(context.locale, error) },
        { status: 429, headers: retryAfterHeaders(error.retryAfterMs) },
      );
    return data({ errors: {}, values, failure: error.code, done: null }, { status: error.status });
  }
}

export default function EmbeddedRequest() {
  const { refusal, organization, lines, locale, overlap, serial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const errors: Record<string, string> = result?.errors ?? {};
  if (refusal) {
    return (
      <section className="message-page">
        <h1>{t("embedded.request")}</h1>
        <p role="alert">{t(`pay.error.${refusal}`)}</p>
      </section>
    );
  }
  if (result?.done) {
    return (
      <section aria-labelledby={`${id}-done`}>
        <h1 id={`${id}-done`}>{t("request.doneTitle")}</h1>
        <p className="notice-box" role="status">
          {t("request.done", { email: result.values.request_email })}
          {result.done.leftCart ? ` ${t("cartCare.requested.left", { count: result.done.leftCart })}` : null}
        </p>
        <dl className="facts">
          <dt>{t("request.number")}</dt>
          <dd>{result.done.requestNo}</dd>
          <dt>{t("cart.total")}</dt>
          <dd>{formatMoney(result.done.total, result.done.currency, locale)}</dd>
        </dl>
        <p className="pay-actions">
          <QuoteLink href={result.done.quotePath} className="button" />
          <Link to="/mypage/sw/pay" className="button button-ghost">
            {t("embedded.pay")}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{t("embedded.request")}</h1>
      <p className="muted">{t("embedded.requestLead", { organization: organization ?? "" })}</p>
      <OverlapNotice lines={overlap} serial={serial} intent="removeHeld" field="held_id" />
      {lines.length === 0 ? (
        <p className="notice-box">{t("embedded.requestEmpty")}</p>
      ) : (
        <Form method="post" className="pay-form" aria-describedby={`${id}-failure`}>
          <fieldset>
            <legend>{t("embedded.requestItems")}</legend>
            <ul className="cart-lines">
              {lines.map((l) => (
                <li key={l.cartId} className="cart-line">
                  <input
                    type="checkbox"
                    name="cart_id"
                    value={l.cartId}
                    id={`${id}-c${l.cartId}`}
                    defaultChecked
                    aria-label={t("cart.select", { title: l.title })}
                  />
                  <label htmlFor={`${id}-c${l.cartId}`} className="cart-line-info">
                    <span>{l.title}</span>
                    <small className="muted">{t(`item.types.${l.type}`)}</small>
                  </label>
                  <PriceTag card={l} locale={locale} />
                </li>
              ))}
            </ul>
          </fieldset>
          <RequestFields values={result?.values} errors={errors} />
          <p id={`${id}-failure`} className="field-error" role="alert">
            {result && "limit" in result ? String(result.limit) : result?.failure ? t(`pay.error.${result.failure}`) : ""}
          </p>
          <p className="pay-actions">
            <button type="submit" className="button" disabled={navigation.state === "submitting"}>
              {t("request.send")}
            </button>
          </p>
        </Form>
      )}
    </section>
  );
}

export const ErrorBoundary = EmbeddedErrorBoundary;
