import type { DB } from "../../db/db.server";
import { sessionSecret } from "../../utils/cookies.server";
import type { Env } from "../../utils/env.server";
import type { GatewayName, PayMethod, PaymentGateway } from "./gateway";
import { PAY_METHODS } from "./gateway";
import { createPayPalGateway } from "./paypal.server";
import { createPortOneGateway } from "./portone.server";
import { createSandboxGateway, type SandboxGateway, sandboxWebhookSecret, type WebhookDelivery } from "./sandbox.server";

/** The gateways the store pays through, chosen by configuration (PAYMENT_GATEWAY). */
export interface Gateways {
  /** Methods the payer can choose, in the spec's order. */
  methods: PayMethod[];
  testMode: boolean;
  forMethod(method: PayMethod): PaymentGateway | null;
  byName(name: string): PaymentGateway | null;
  /** The built-in sandbox, when it is the configured gateway. */
  sandbox: SandboxGateway | null;
}

export interface GatewayFactories {
  portone?: (env: Env) => PaymentGateway | null;
  paypal?: (env: Env) => PaymentGateway | null;
}

/** The live gateways from the environment (env.server.ts checks their credentials come complete). */
export const defaultFactories: Required<GatewayFactories> = {
  portone: (env) =>
    env.PORTONE_API_SECRET && env.PORTONE_WEBHOOK_SECRET && env.PORTONE_STORE_ID
      ? createPortOneGateway({
          apiSecret: env.PORTONE_API_SECRET,
          webhookSecret: env.PORTONE_WEBHOOK_SECRET,
          storeId: env.PORTONE_STORE_ID,
          channelKeys: {
            card: env.PORTONE_CHANNEL_CARD,
            phone: env.PORTONE_CHANNEL_PHONE,
            kakaopay: env.PORTONE_CHANNEL_KAKAOPAY,
            vbank: env.PORTONE_CHANNEL_VBANK,
          },
          testMode: env.PORTONE_TEST_CHANNELS,
        })
      : null,
  paypal: (env) =>
    env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET && env.PAYPAL_WEBHOOK_ID
      ? createPayPalGateway({
          clientId: env.PAYPAL_CLIENT_ID,
          clientSecret: env.PAYPAL_CLIENT_SECRET,
          webhookId: env.PAYPAL_WEBHOOK_ID,
          testMode: env.PAYPAL_MODE === "sandbox",
          brandName: "VideoAsset Market",
        })
      : null,
};

export function createGateways(db: DB, env: Env, options: { deliver?: WebhookDelivery; factories?: GatewayFactories } = {}): Gateways {
  if (env.PAYMENT_GATEWAY === "sandbox") {
    const sandbox = createSandboxGateway({
      db,
      secret: sandboxWebhookSecret(sessionSecret(env)),
      deliver: options.deliver,
      repeat: env.SANDBOX_WEBHOOK_REPEAT,
      maxDelayMs: env.SANDBOX_WEBHOOK_MAX_DELAY_MS,
    });
    return {
      methods: [...PAY_METHODS],
      testMode: true,
      forMethod: () => sandbox,
      byName: (name) => (name === "sandbox" ? sandbox : null),
      sandbox,
    };
  }
  const factories = { ...defaultFactories, ...options.factories };
  const live = [factories.portone(env), factories.paypal(env)].filter((g): g is PaymentGateway => Boolean(g));
  const byMethod = new Map<PayMethod, PaymentGateway>();
  for (const gateway of live) for (const method of gateway.methods) if (!byMethod.has(method)) byMethod.set(method, gateway);
  return {
    methods: PAY_METHODS.filter((m) => byMethod.has(m)),
    testMode: live.some((g) => g.testMode),
    forMethod: (method) => byMethod.get(method) ?? null,
    byName: (name) => live.find((g) => g.name === (name as GatewayName)) ?? null,
    sandbox: null,
  };
}
