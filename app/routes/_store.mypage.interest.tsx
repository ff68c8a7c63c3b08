import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ContentCard } from "../components/content-card";
import { useTranslation } from "../i18n/react";
import { contentTypeParam } from "../market/catalog/queries.server";
import { MarketError } from "../market/errors";
import { addFavorites, favoritesToCart, listFavorites, removeFavorites } from "../market/interests.server";
import { requireViewer } from "../utils/auth.server";
import { favoritesActionSchema } from "../utils/input.server";
import { pageSeo } from "../utils/page.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "cartResult", "favorites", "item", "orders", "pay", "purchase", "request", "search"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const type = contentTypeParam.parse(new URL(request.url).searchParams.get("type") ?? undefined);
  const [favorites, seo] = await Promise.all([
    listFavorites(context.db, viewer.id, context.locale, type),
    pageSeo(request, context, { titleKey: "favorites.title" }),
  ]);
  return { favorites, type: type ?? null, seo, locale: context.locale };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const form = await request.formData();
  const parsed = favoritesActionSchema.safeParse({ ...Object.fromEntries(form), interest_id: form.getAll("interest_id") });
  if (!parsed.success) return data({ ok: false, message: "cart.nothingSelected", count: 0 });
  const input = parsed.data;
  if (input.intent === "add") {
    try {
      await addFavorites(context.db, viewer.id, [input.code]);
    } catch (error) {
      if (!(error instanceof MarketError)) throw error;
      if (!input.js) return redirect(safePath(input.redirectTo, "/mypage/interest"));
      return data({ ok: false, message: `cart.result.${error.code}`, count: 0 });
    }
    if (!input.js) return redirect(safePath(input.redirectTo, "/mypage/interest"));
    return data({ ok: true, message: "favorites.added", count: 1 });
  }
  if (!input.interest_id.length) return data({ ok: false, message: "cart.nothingSelected", count: 0 });
  if (input.intent === "remove") {
    const count = await removeFavorites(context.db, viewer.id, input.interest_id);
    return data({ ok: true, message: "favorites.removed", count });
  }
  const result = await favoritesToCart(context.db, viewer.id, input.interest_id);
  return data({ ok: result.code === "SUCCESS", message: `cart.result.${result.code}`, count: result.added });
}

export default function FavoritesPage() {
  const { favorites, type, locale } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy = navigation.state === "submitting";
  return (
    <section>
      <h1>{t("favorites.title")}</h1>
      <nav aria-label={t("cart.tabs")}>
        <ul className="tabs">
          <li>
            <Link to="/mypage/interest" aria-current={type === null ? "page" : undefined}>
              {t("search.type.all")}
            </Link>
          </li>
          {(["video", "icon", "audio", "package", "font"] as const).map((k) => (
            <li key={k}>
              <Link to={`/mypage/interest?type=${k}`} aria-current={type === k ? "page" : undefined}>
                {t(`item.types.${k}`)} <span className="badge">{favorites.counts[k]}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div role="status" aria-live="polite" className={`form-result${result && !result.ok ? " is-error" : ""}`}>
        {result?.message ? t(result.message, { count: result.count }) : null}
      </div>
      {favorites.list.length === 0 ? (
        <p>{t("favorites.empty")}</p>
      ) : (
        <Form method="post">
          <div className="cart-toolbar">
            <button type="submit" name="intent" value="cart" className="button" disabled={busy}>
              {t("favorites.toCart")}
            </button>
            <button type="submit" name="intent" value="remove" className="button button-ghost" disabled={busy}>
              {t("favorites.remove")}
            </button>
          </div>
          <ul className="card-grid" aria-label={t("favorites.title")}>
            {favorites.list.map((f) => (
              <li key={f.interestId} className="favorite">
                <label className="check">
                  <input type="checkbox" name="interest_id" value={f.interestId} /> {t("cart.select", { title: f.title })}
                </label>
                <ul className="card-grid single">
                  <ContentCard card={f} locale={locale} />
                </ul>
              </li>
            ))}
          </ul>
        </Form>
      )}
    </section>
  );
}
