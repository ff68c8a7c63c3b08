import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PayStopped } from "../components/pay";
import { pageSeo } from "../utils/page.server";
import { requirePay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["pay"] };

/** /pay-error: the payment was refused or failed; the order stays in the session so the payer can try again. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePay(request, context);
  return { seo: await pageSeo(request, context, { titleKey: "pay.errorPage.title" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function PayError() {
  return <PayStopped titleKey="pay.errorPage.title" messageKey="pay.errorPage.message" />;
}
