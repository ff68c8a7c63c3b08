import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { detailHref, PriceTag } from "../components/content-card";
import { OverlapNotice } from "../components/overlap-notice";
import { passTitle } from "../i18n/pass-title";
import { useTranslation } from "../i18n/react";
import {
  addPassToCart,
  addToCart,
  cartPassPrices,
  listCart,
  listCartPasses,
  moveCartToFavorites,
  payableCartContents,
  removeCartPasses,
  removeFromCart,
} from "../market/cart.server";
import { buyNowContent, linesToRemove } from "../market/cart-choices.server";
import { cartHref, nextOff, parseOff } from "../market/cart-selection";
import { cartOutcomeParam, contentTypeParam } from "../market/catalog/queries.server";
import { memberOverlap } from "../market/downloads/overlap.server";
import { MarketError } from "../market/errors";
import { formatMoney, vatOf, withVat } from "../market/money";
import type { PassGroup } from "../market/pass-groups";
import { cartFormSchema } from "../utils/cart-input.server";
import { cartOwner } from "../utils/cart-owner.server";
import { overlapLines } from "../utils/overlap-lines.server";
import { pageSeo } from "../utils/page.server";
import { startPay } from "../utils/pay-session.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "cartCare", "cartResult", "item", "price", "search"] };

function formObject(form: FormData) {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    out[key] = key === "cart_id" || key === "pass_line" || key === "held_id" ? values : values[0];
  }
  return out;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // A tab chosen from the cart form: keep what was unticked, then show the tab at a clean address.
  if (url.searchParams.has("tab")) {
    const ids = (name: string) => url.searchParams.getAll(name).flatMap((v) => parseOff(v));
    const off = nextOff(parseOff(url.searchParams.get("off_prev")), ids("shown"), ids("cart_id"));
    throw redirect(cartHref(contentTypeParam.parse(url.searchParams.get("tab") ?? undefined) ?? null, off));
  }
  const off = parseOff(url.searchParams.get("off"));
  const type = contentTypeParam.parse(url.searchParams.get("type") ?? undefined);
  const { owner, viewer } = await cartOwner(request, context);
  const [cart, seo, passes] = await Promise.all([
    listCart(context.db, owner, context.locale, type),
    pageSeo(request, context, { titleKey: "cart.title" }),
    viewer && !type ? listCartPasses(context.db, viewer.id, context.locale) : Promise.resolve([]),
  ]);
  const outcome = cartOutcomeParam.parse(url.searchParams.get("cart"));
  // Items one of the member's licences already holds (issue 24, point 3), with the lines to drop in one action.
  const overlaps = viewer
    ? await memberOverlap(
        context.db,
        viewer.id,
        cart.lines.map((l) => l.id),
      )
    : [];
  const overlap = overlapLines(
    overlaps,
    context.locale,
    (id) => cart.lines.find((l) => l.id === id)?.title,
    (id) => cart.lines.find((l) => l.id === id)?.cartId,
  );
  return { cart, passes, type: type ?? null, off, signedIn: Boolean(viewer), seo, locale: context.locale, outcome, overlap };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = cartFormSchema.safeParse(formObject(await request.formData()));
  if (!parsed.success) return data({ message: "cart.nothingSelected" as const, count: 0, code: null });
  const input = parsed.data;
  if (input.intent === "add") {
    const { owner, setCookie } = await cartOwner(request, context, { create: true });
    const result = await addToCart(context.db, owner, [{ code: input.code }]);
    const headers = new Headers();
    if (setCookie) headers.append("Set-Cookie", setCookie);
    // Without JavaScript the form posts here directly: go back to the page with the outcome in the address.
    if (!input.js) {
      const back = new URL(safePath(input.redirectTo, "/cart"), "http://x");
      back.searchParams.set("cart", result.code);
      return redirect(back.pathname + back.search, { headers });
    }
    // Every outcome is an answer the page shows, not a failed request.
    return data({ code: result.code, cartCount: result.cartCount, message: null, count: 0 }, { headers });
  }
  const { owner, viewer } = await cartOwner(request, context);
  if (input.intent === "buyNow") {
    // That one item goes to checkout; the cart is left as it was. Paying needs an account: a guest signs in first
    // and comes back to the item (the existing rule for buying).
    const back = safePath(input.redirectTo, "/");
    if (!viewer) return redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
    const found = await buyNowContent(context.db, input.code);
    if (!found.ok) {
      const url = new URL(back, "http://x");
      url.searchParams.set("cart", found.code);
      return redirect(url.pathname + url.search);
    }
    const cookie = await startPay(context, [{ kind: "content", id: found.contentId }]);
    return redirect("/pay01", { headers: { "Set-Cookie": cookie } });
  }
  if (input.intent === "addPass") {
    // Passes are for signed-in individual members: a visitor signs in first and comes back.
    const back = safePath(input.redirectTo, "/cart");
    if (!viewer) return redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
    let code: string;
    try {
      code = (await addPassToCart(context.db, viewer, input.pass)).code;
    } catch (error) {
      if (error instanceof MarketError) code = error.code;
      else throw error;
    }
    if (!input.js) {
      const url = new URL(back, "http://x");
      url.searchParams.set("cart", code);
      return redirect(url.pathname + url.search);
    }
    return data({ code, message: null, count: 0 });
  }
  if (input.intent === "removeHeld") {
    // "Remove these" of the overlap notice: the lines it listed, in one action.
    const count = await removeFromCart(context.db, owner, input.held_id);
    return data({ message: "cartCare.overlap.removed" as const, count, code: null });
  }
  const passLines = "pass_line" in input ? input.pass_line : [];
  if (!input.cart_id.length && !passLines.length) return data({ message: "cart.nothingSelected" as const, count: 0, code: null });
  if (input.intent === "remove") {
    // Nothing goes before the shopper has seen which lines would (issue 24, point 4): the answer lists them.
    const confirm = await linesToRemove(context.db, owner, input.cart_id, viewer ? passLines : [], context.locale);
    if (!confirm.lines.length && !confirm.passes.length) return data({ message: "cart.nothingSelected" as const, count: 0, code: null });
    return data({ message: null, count: confirm.lines.length + confirm.passes.length, code: null, confirm });
  }
  if (input.intent === "removeConfirmed") {
    const count =
      (await removeFromCart(context.db, owner, input.cart_id)) + (viewer ? await removeCartPasses(context.db, viewer.id, passLines) : 0);
    return data({ message: "cart.deleted" as const, count, code: null });
  }
  if (input.intent === "buy") {
    // Buying needs an account: a guest signs in (their cart merges) and comes back to the cart.
    if (!viewer) return redirect("/login?redirectTo=%2Fcart");
    const contentIds = await payableCartContents(context.db, owner, input.cart_id);
    const passIds = await cartPassPrices(context.db, viewer.id, passLines);
    if (!contentIds.length && !passIds.length) return data({ message: "cart.nothingPayable" as const, count: 0, code: null });
    const cookie = await startPay(context, [
      ...contentIds.map((id) => ({ kind: "content" as const, id })),
      ...passIds.map((id) => ({ kind: "pass" as const, id })),
    ]);
    return redirect("/pay01", { headers: { "Set-Cookie": cookie } });
  }
  if (input.intent === "request" || input.intent === "direct") {
    // A B2BG product user holds only a licence key: both flows start with the key lookup (spec section 5).
    const contentIds = await payableCartContents(context.db, owner, input.cart_id);
    if (!contentIds.length) return data({ message: "cart.nothingPayable" as const, count: 0, code: null });
    const cookie = await startPay(
      context,
      contentIds.map((id) => ({ kind: "content" as const, id })),
      { flow: input.intent },
    );
    return redirect(input.intent === "request" ? "/pay-key" : "/pay01", { headers: { "Set-Cookie": cookie } });
  }
  if (!viewer) return data({ message: "cart.guestFavorites" as const, count: 0, code: null });
  const count = await moveCartToFavorites(context.db, viewer.id, input.cart_id);
  return data({ message: "cart.moved" as const, count, code: null });
}

export default function CartPage() {
  const { cart, passes, type, off, signedIn, locale, outcome, overlap } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  // Every line starts selected; the unticked ones come with the address (they survive a change of tab). When the
  // lines or the address change (deleted, moved, another tab) the selection starts again from the address.
  const linesKey = `${type}:${off.join(",")}:${cart.lines.map((l) => l.cartId).join(",")}`;
  // A delete waiting for its confirmation keeps the lines it names ticked (without JavaScript the page is rendered
  // again from the answer, so the boxes come from it, not from the address).
  const confirm = result && "confirm" in result ? result.confirm : null;
  const fromAddress = () =>
    confirm ? new Set(confirm.lines.map((l) => l.cartId)) : new Set(cart.lines.map((l) => l.cartId).filter((id) => !off.includes(id)));
  const [selection, setSelection] = useState<{ key: string; ids: Set<number> }>(() => ({ key: linesKey, ids: fromAddress() }));
  const selected = selection.key === linesKey ? selection.ids : fromAddress();
  const setSelected = (update: Set<number> | ((prev: Set<number>) => Set<number>)) =>
    setSelection({ key: linesKey, ids: typeof update === "function" ? update(selected) : update });
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith("/cart");
  const allSelected = cart.lines.length > 0 && selected.size === cart.lines.length;
  const toggle = (id: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const currency = locale === "ko" ? "KRW" : "USD";
  const formId = "cart-form";
  const hasForm = cart.lines.length > 0 || passes.length > 0;
  const passAmount = passes.reduce((n, p) => n + p.price, 0);
  const passVat = passes.reduce((n, p) => n + vatOf(p.price), 0);
  return (
    <section className="cart-page">
      <h1>{t("cart.title")}</h1>
      <nav aria-label={t("cart.tabs")}>
        <ul className="tabs">
          {([null, "video", "icon", "audio", "package", "font"] as const).map((k) => {
            const label = (
              <>
                {k ? t(`item.types.${k}`) : t("search.type.all")}{" "}
                <span className="badge">{k ? cart.counts[k] : Object.values(cart.counts).reduce((a, b) => a + b, 0)}</span>
              </>
            );
            return (
              <li key={k ?? "all"}>
                {hasForm ? (
                  // A submit of the cart form (GET): the unticked lines go along to the other tab, without JavaScript too.
                  <button
                    type="submit"
                    form={formId}
                    formMethod="get"
                    formAction="/cart"
                    name="tab"
                    value={k ?? "all"}
                    className="tab-button"
                    aria-current={type === k ? "page" : undefined}
                  >
                    {label}
                  </button>
                ) : (
                  <Link to={cartHref(k, off)} aria-current={type === k ? "page" : undefined}>
                    {label}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      </nav>
      <p className="muted">{t("cart.keep")}</p>
      {!signedIn ? (
        <p className="notice-box">
          {t("cart.guestFavorites")} <Link to="/login?redirectTo=%2Fcart">{t("header.signIn")}</Link>
        </p>
      ) : null}
      <div
        role="status"
        aria-live="polite"
        className={`form-result${(result?.message ? !["cart.deleted", "cart.moved", "cartCare.overlap.removed"].includes(result.message) : result?.code ? result.code !== "SUCCESS" : Boolean(outcome && outcome !== "SUCCESS")) ? " is-error" : ""}`}
      >
        {result?.message
          ? t(result.message, { count: result.count })
          : outcome && outcome !== "SUCCESS"
            ? t(`cart.result.${outcome}`)
            : null}
      </div>
      <OverlapNotice lines={overlap} intent="removeHeld" field="held_id" />
      {confirm ? <DeleteConfirmation confirm={confirm} cancelHref={cartHref(type, off)} /> : null}
      {cart.lines.length === 0 && passes.length === 0 ? (
        <p>{t("cart.empty")}</p>
      ) : (
        <Form method="post" ref={formRef} className="cart-form" id={formId}>
          {cart.lines.map((line) => (
            <input key={line.cartId} type="hidden" name="shown" value={line.cartId} />
          ))}
          <input type="hidden" name="off_prev" value={off.join(",")} />
          <div className="cart-toolbar">
            <label className="check">
              <input
                type="checkbox"
                checked={allSelected}
                onChange={(e) => setSelected(e.currentTarget.checked ? new Set(cart.lines.map((l) => l.cartId)) : new Set())}
              />{" "}
              {t("cart.selectAll")}
            </label>
            <span className="muted">{t("cart.selected", { count: selected.size })}</span>
            <button type="submit" name="intent" value="remove" className="button button-ghost" disabled={busy}>
              {t("cart.delete")}
            </button>
            {signedIn ? (
              <button type="submit" name="intent" value="favorite" className="button button-ghost" disabled={busy}>
                {t("cart.toFavorites")}
              </button>
            ) : null}
            <button type="submit" name="intent" value="buy" className="button" disabled={busy}>
              {t("cart.buySelected")}
            </button>
          </div>
          {signedIn ? null : (
            <fieldset className="cart-business">
              <legend>{t("cart.business.title")}</legend>
              <p className="muted">{t("cart.business.lead")}</p>
              <button type="submit" name="intent" value="request" className="button button-ghost" disabled={busy}>
                {t("cart.business.request")}
              </button>
              <button type="submit" name="intent" value="direct" className="button button-ghost" disabled={busy}>
                {t("cart.business.direct")}
              </button>
            </fieldset>
          )}
          <ul className="cart-lines">
            {cart.lines.map((line) => (
              <li key={line.cartId} className="cart-line">
                <input
                  type="checkbox"
                  name="cart_id"
                  value={line.cartId}
                  id={`cart-${line.cartId}`}
                  checked={selected.has(line.cartId)}
                  onChange={(e) => toggle(line.cartId, e.currentTarget.checked)}
                  aria-label={t("cart.select", { title: line.title })}
                />
                {line.thumb ? (
                  <img src={line.thumb} alt="" width={96} height={54} loading="lazy" />
                ) : (
                  <span className="cart-glyph" aria-hidden="true">
                    ♪
                  </span>
                )}
                <span className="cart-line-info">
                  <Link to={detailHref(line)}>{line.title}</Link>
                  <small className="muted">{t(`item.types.${line.type}`)}</small>
                  {line.discontinued ? <small className="muted">{t("item.discontinued")}</small> : null}
                </span>
                <PriceTag card={line} locale={locale} />
              </li>
            ))}
          </ul>
          {passes.length ? (
            <ul className="cart-lines" aria-label={t("cart.passes")}>
              {passes.map((p) => (
                <li key={p.cartPassId} className="cart-line">
                  <input
                    type="checkbox"
                    name="pass_line"
                    value={p.cartPassId}
                    defaultChecked
                    aria-label={t("cart.select", { title: passTitle(t, p.group, p.count) })}
                  />
                  <span className="cart-glyph" aria-hidden="true">
                    ★
                  </span>
                  <span className="cart-line-info">
                    <span>{passTitle(t, p.group, p.count)}</span>
                    <small className="muted">{t("price.validDays", { days: p.validDays })}</small>
                  </span>
                  <span className="price">
                    {formatMoney(withVat(p.price), p.currency, locale)} <small>{t("item.vatIncluded")}</small>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          <dl className="price-box cart-summary" aria-label={t("cart.summary")}>
            <dt>{t("cart.amount")}</dt>
            <dd>{formatMoney(cart.amount + passAmount, currency, locale)}</dd>
            <dt>{t("cart.vat")}</dt>
            <dd>{formatMoney(cart.vat + passVat, currency, locale)}</dd>
            <dt>{t("cart.total")}</dt>
            <dd className="price-total">{formatMoney(cart.total + passAmount + passVat, currency, locale)}</dd>
          </dl>
        </Form>
      )}
    </section>
  );
}

/**
 * "Delete selected" asks first (issue 24, point 4): the lines that would go, by name, and one button that deletes
 * exactly those; "Keep them" goes back to the cart. A form of its own, so it works without JavaScript.
 */
function DeleteConfirmation({
  confirm,
  cancelHref,
}: {
  confirm: { lines: { cartId: number; title: string }[]; passes: { cartPassId: number; group: PassGroup; count: number }[] };
  cancelHref: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const heading = useRef<HTMLHeadingElement>(null);
  const count = confirm.lines.length + confirm.passes.length;
  useEffect(() => heading.current?.focus(), []);
  return (
    <Form method="post" className="cart-confirm" aria-labelledby="cart-confirm-title">
      <h2 id="cart-confirm-title" ref={heading} tabIndex={-1}>
        {t("cartCare.delete.title", { count })}
      </h2>
      <ul>
        {confirm.lines.map((l) => (
          <li key={`c${l.cartId}`}>
            {l.title}
            <input type="hidden" name="cart_id" value={l.cartId} />
          </li>
        ))}
        {confirm.passes.map((p) => (
          <li key={`p${p.cartPassId}`}>
            {passTitle(t, p.group, p.count)}
            <input type="hidden" name="pass_line" value={p.cartPassId} />
          </li>
        ))}
      </ul>
      <p className="pay-actions">
        <button type="submit" name="intent" value="removeConfirmed" className="button" disabled={navigation.state !== "idle"}>
          {t("cartCare.delete.confirm", { count })}
        </button>
        <Link to={cancelHref} className="button button-ghost">
          {t("cartCare.delete.keep")}
        </Link>
      </p>
    </Form>
  );
}
