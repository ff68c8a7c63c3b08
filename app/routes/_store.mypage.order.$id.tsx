import { type ActionFunctionArgs, data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { KeyOrderDetail } from "../components/key-order";
import { useTranslation } from "../i18n/react";
import { orderDetail } from "../market/orders/history.server";
import { seoulText } from "../utils/dates";
import { positiveId } from "../utils/input.server";
import { cancelKeyOrder, keyOrderView, requireOrderAccess } from "../utils/key-order.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = {
  i18n: ["cart", "certificate", "embedded", "item", "keyOrder", "licenses", "orders", "passes", "pay", "price", "purchase", "request"],
};

/** Personal and carrying a token in its address: never stored, never sent on as a referrer. */
const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };

/**
 * /mypage/order/{id}?access=<token>: the page a key-only buyer's order mail opens (no login, no editor headers).
 * The signed, expiring token grants this one order of this one key: its detail, certificates and cancellation
 * under the member's rules; never another order or a webview page. A token that is not ours or names another
 * order answers 403, an expired one 410, both without any of the order.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId.safeParse(params.id);
  if (!id.success) throw data({ reason: "invalid" as const }, { status: 403, headers: PRIVATE });
  const token = new URL(request.url).searchParams.get("access");
  const access = requireOrderAccess(context, token, id.data);
  const order = await orderDetail(context.db, { keyLicenseId: access.licenseId }, id.data, context.locale);
  if (!order) throw data({ reason: "gone" as const }, { status: 404, headers: PRIVATE });
  return data(
    {
      order: keyOrderView(order, context.locale),
      token: token as string,
      until: seoulText(new Date(access.expires).toISOString(), context.locale, "until"),
      seo: await pageSeo(request, context, { titleKey: "orders.detailTitle" }),
    },
    { headers: PRIVATE },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = positiveId.safeParse(params.id);
  if (!id.success) throw data({ reason: "invalid" as const }, { status: 403, headers: PRIVATE });
  const access = requireOrderAccess(context, new URL(request.url).searchParams.get("access"), id.data);
  return cancelKeyOrder(request, context, access.licenseId, id.data);
}

export const headers: HeadersFunction = () => PRIVATE;

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function KeyOrderPage() {
  const { order, token, until } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const access = `access=${encodeURIComponent(token)}`;
  return (
    <section className="account-page wide">
      <h1>{t("orders.detailTitle")}</h1>
      <p className="muted">{t("keyOrder.mailLead", { licence: order.licence ?? "—", until })}</p>
      <KeyOrderDetail
        order={order}
        result={result}
        formAction={`/mypage/order/${order.id}?${access}`}
        place="mail"
        certificateHref={(line) => `/mypage/order/${order.id}/certificate/${line}?${access}`}
      />
    </section>
  );
}

/** A refused link says why and shows nothing of any order. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const which = status === 410 ? "expired" : status === 403 ? "invalid" : null;
  return (
    <section className="message-page">
      <h1>{which ? t(`keyOrder.${which}Title`) : status === 404 ? t("notFound.title") : t("errorService.title")}</h1>
      <p role="alert">{which ? t(`keyOrder.${which}`) : status === 404 ? t("notFound.message") : t("errorService.message")}</p>
    </section>
  );
}
