import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PaymentHistory } from "../components/payment-history";
import { useTranslation } from "../i18n/react";
import { paymentHistoryPage } from "../market/orders/history.server";
import { requireViewer } from "../utils/auth.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["licenses", "orders", "pagination", "passes"] };

/** /mypage/pay: payment history, newest payment first, looked up at most 3 years back. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, context);
  const [history, seo] = await Promise.all([
    paymentHistoryPage(context.db, { userId: viewer.id }, new URL(request.url).searchParams, context.locale),
    pageSeo(request, context, { titleKey: "orders.title" }),
  ]);
  return { history, seo };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PaymentHistoryPage() {
  const { history } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="account-page wide">
      <h1>{t("orders.title")}</h1>
      <PaymentHistory history={history} detailHref={(id) => `/mypage/pay/${id}`} />
    </section>
  );
}
