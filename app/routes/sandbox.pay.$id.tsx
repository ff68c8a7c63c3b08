import { type ActionFunctionArgs, type AppLoadContext, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { useTranslation } from "../i18n/react";
import { identifyLicense } from "../market/licenses.server";
import { formatMoney } from "../market/money";
import { isBuyerOfPayment } from "../market/orders/orders.server";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { readPay } from "../utils/pay-session.server";
import { seoMeta } from "../utils/seo";
import { readShopper } from "../utils/shopper.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["cart", "licenses", "pay", "sandbox"] };

/**
 * The sandbox and the payment, for the order's own buyer only: the signed-in member who placed it, or for an order
 * placed with a licence key the licence named by the `license_id` and `hw_info` headers or found by the checkout. Anyone else, an unknown
 * payment, and the live gateways (PAYMENT_GATEWAY=live) get 404.
 */
async function buyersPayment(request: Request, id: string, context: AppLoadContext) {
  const sandbox = context.env.PAYMENT_GATEWAY === "live" ? null : context.payments.sandbox;
  if (!sandbox) throw data(null, { status: 404 });
  const serial = request.headers.get("license_id")?.trim();
  const hwInfo = request.headers.get("hw_info")?.trim();
  const [payment, { viewer }, license, pay] = await Promise.all([
    sandbox.find(id),
    readShopper(request, context),
    serial && hwInfo ? identifyLicense(context.db, serial, hwInfo) : null,
    readPay(request, context),
  ]);
  // A direct purchase by key on the website: the key its checkout looked up (the signed pay session) speaks for it.
  const keyOfCheckout = pay?.data.flow === "direct" ? (pay.data.keyLicenseId ?? null) : null;
  const asker = { userId: viewer?.id ?? null, licenseId: license?.id ?? keyOfCheckout };
  if (!payment || !(await isBuyerOfPayment(context.db, sandbox.name, payment.id, asker))) throw data(null, { status: 404 });
  return { sandbox, payment };
}

/**
 * The sandbox gateway's hosted payment page (test mode): it stands where a real gateway's payment window would.
 * The test payer approves, declines or abandons; a virtual account is issued and later "deposited" here. The
 * gateway then notifies the store with a signed webhook and sends the browser back to the store. Only the order's
 * buyer sees or acts on it (see `buyersPayment`).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { payment } = await buyersPayment(request, params.id ?? "", context);
  return {
    payment: {
      id: payment.id,
      orderName: payment.order_name,
      amount: payment.amount,
      vat: payment.vat,
      currency: payment.currency as "KRW" | "USD",
      method: payment.method,
      status: payment.status,
      account: payment.vbank_account ? `${payment.vbank_bank} ${payment.vbank_account}` : null,
      dueText: seoulText(payment.vbank_due_at, context.locale, "long"),
    },
    locale: context.locale,
    seo: await pageSeo(request, context, { titleKey: "sandbox.title" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

const actionSchema = z.object({ action: z.enum(["approve", "decline", "abandon", "deposit"]) });

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { sandbox, payment } = await buyersPayment(request, params.id ?? "", context);
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: true }, { status: 400 });
  const { location } = await sandbox.act(payment.id, parsed.data.action);
  return redirect(location);
}

export default function SandboxPay() {
  const { payment, locale } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy = navigation.state !== "idle";
  return (
    <main id="main" className="plain-page sandbox-page">
      <p className="test-mode-banner" role="note">
        {t("sandbox.banner")}
      </p>
      <h1>{t("sandbox.title")}</h1>
      <dl className="price-box">
        <dt>{t("sandbox.merchant")}</dt>
        <dd>{t("brand")}</dd>
        <dt>{t("sandbox.order")}</dt>
        <dd>{payment.orderName}</dd>
        <dt>{t("sandbox.paymentId")}</dt>
        <dd>{payment.id}</dd>
        <dt>{t("sandbox.method")}</dt>
        <dd>{t(`pay.method.${payment.method}`)}</dd>
        <dt>{t("cart.total")}</dt>
        <dd className="price-total">{formatMoney(payment.amount, payment.currency, locale)}</dd>
      </dl>
      {payment.status === "ready" ? (
        <Form method="post" className="sandbox-actions">
          <button type="submit" name="action" value="approve" className="button" disabled={busy}>
            {payment.method === "vbank" ? t("sandbox.issue") : t("sandbox.approve")}
          </button>
          <button type="submit" name="action" value="decline" className="button button-secondary" disabled={busy}>
            {t("sandbox.decline")}
          </button>
          <button type="submit" name="action" value="abandon" className="button button-ghost" disabled={busy}>
            {t("sandbox.abandon")}
          </button>
        </Form>
      ) : payment.status === "vbank_issued" ? (
        <>
          <p className="notice-box">{t("sandbox.issued", { account: payment.account ?? "", due: payment.dueText })}</p>
          <Form method="post" className="sandbox-actions">
            <button type="submit" name="action" value="deposit" className="button" disabled={busy}>
              {t("sandbox.deposit")}
            </button>
          </Form>
        </>
      ) : (
        <p className="notice-box">{t(`sandbox.status.${payment.status}`)}</p>
      )}
    </main>
  );
}
