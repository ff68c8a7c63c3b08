import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import { z } from "zod";
import { detailHref, PriceTag } from "../components/content-card";
import { useTranslation } from "../i18n/react";
import { addToCart, listCart, moveCartToFavorites, payableCartContents, removeFromCart } from "../market/cart.server";
import { CART_OUTCOMES } from "../market/cart-outcomes";
import { CONTENT_TYPES } from "../market/catalog/detail.server";
import { formatMoney } from "../market/money";
import { cartOwner } from "../utils/cart-owner.server";
import { pageSeo } from "../utils/page.server";
import { startPay } from "../utils/pay-session.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";

const ids = z.preprocess((v) => (Array.isArray(v) ? v : v === undefined ? [] : [v]), z.array(z.coerce.number().int().positive()).max(100));

/** One schema per intent of the cart form (a discriminated union, Hydrogen-style intent switch). */
export const cartActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    code: z.string().regex(/^[A-Z]{2}\d{7}$/),
    redirectTo: z.string().optional(),
    js: z.string().optional(),
  }),
  z.object({ intent: z.literal("remove"), cart_id: ids }),
  z.object({ intent: z.literal("favorite"), cart_id: ids }),
  z.object({ intent: z.literal("buy"), cart_id: ids }),
]);

function formObject(form: FormData) {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    out[key] = key === "cart_id" ? values : values[0];
  }
  return out;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const type = z
    .enum(CONTENT_TYPES)
    .optional()
    .catch(undefined)
    .parse(url.searchParams.get("type") ?? undefined);
  const { owner, viewer } = await cartOwner(request, context);
  const [cart, seo] = await Promise.all([
    listCart(context.db, owner, context.locale, type),
    pageSeo(request, context, { titleKey: "cart.title" }),
  ]);
  const outcome = z.enum(CART_OUTCOMES).nullable().catch(null).parse(url.searchParams.get("cart"));
  return { cart, type: type ?? null, signedIn: Boolean(viewer), seo, locale: context.locale, outcome };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = cartActionSchema.safeParse(formObject(await request.formData()));
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
  if (!input.cart_id.length) return data({ message: "cart.nothingSelected" as const, count: 0, code: null });
  if (input.intent === "remove") {
    const count = await removeFromCart(context.db, owner, input.cart_id);
    return data({ message: "cart.deleted" as const, count, code: null });
  }
  if (input.intent === "buy") {
    // Buying needs an account: a guest signs in (their cart merges) and comes back to the cart.
    if (!viewer) return redirect("/login?redirectTo=%2Fcart");
    const contentIds = await payableCartContents(context.db, owner, input.cart_id);
    if (!contentIds.length) return data({ message: "cart.nothingPayable" as const, count: 0, code: null });
    const cookie = await startPay(
      context,
      contentIds.map((id) => ({ kind: "content" as const, id })),
    );
    return redirect("/pay01", { headers: { "Set-Cookie": cookie } });
  }
  if (!viewer) return data({ message: "cart.guestFavorites" as const, count: 0, code: null });
  const count = await moveCartToFavorites(context.db, viewer.id, input.cart_id);
  return data({ message: "cart.moved" as const, count, code: null });
}

export default function CartPage() {
  const { cart, type, signedIn, locale, outcome } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  // The selection belongs to the lines shown: when they change (deleted, moved, another tab) it starts empty.
  const linesKey = `${type}:${cart.lines.map((l) => l.cartId).join(",")}`;
  const [selection, setSelection] = useState<{ key: string; ids: Set<number> }>({ key: linesKey, ids: new Set() });
  const selected = selection.key === linesKey ? selection.ids : new Set<number>();
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
  return (
    <section className="cart-page">
      <h1>{t("cart.title")}</h1>
      <nav aria-label={t("cart.tabs")}>
        <ul className="tabs">
          <li>
            <Link to="/cart" aria-current={type === null ? "page" : undefined}>
              {t("search.type.all")} <span className="badge">{Object.values(cart.counts).reduce((a, b) => a + b, 0)}</span>
            </Link>
          </li>
          {(["video", "icon", "audio", "package", "font"] as const).map((k) => (
            <li key={k}>
              <Link to={`/cart?type=${k}`} aria-current={type === k ? "page" : undefined}>
                {t(`item.types.${k}`)} <span className="badge">{cart.counts[k]}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="muted">{t("cart.keep")}</p>
      {!signedIn ? (
        <p className="notice-box">
          {t("cart.guestFavorites")} <Link to="/login?redirectTo=%2Fcart">{t("header.signIn")}</Link>
        </p>
      ) : null}
      <div role="status" aria-live="polite" className="form-result">
        {result?.message
          ? t(result.message, { count: result.count })
          : outcome && outcome !== "SUCCESS"
            ? t(`cart.result.${outcome}`)
            : null}
      </div>
      {cart.lines.length === 0 ? (
        <p>{t("cart.empty")}</p>
      ) : (
        <Form method="post" ref={formRef} className="cart-form">
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
          <dl className="price-box cart-summary" aria-label={t("cart.summary")}>
            <dt>{t("cart.amount")}</dt>
            <dd>{formatMoney(cart.amount, currency, locale)}</dd>
            <dt>{t("cart.vat")}</dt>
            <dd>{formatMoney(cart.vat, currency, locale)}</dd>
            <dt>{t("cart.total")}</dt>
            <dd className="price-total">{formatMoney(cart.total, currency, locale)}</dd>
          </dl>
        </Form>
      )}
    </section>
  );
}
