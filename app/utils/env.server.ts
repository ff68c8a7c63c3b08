import { z } from "zod";

/** Boolean environment values: "1/true/yes/on" and "0/false/no/off". */
const flag = (fallback: boolean) =>
  z
    .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
    .optional()
    .transform((v) => (v === undefined ? fallback : ["1", "true", "yes", "on"].includes(v)));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres:\/\/|postgresql:\/\/)/, "must start with file: or postgres://")
    .default("file:./data/market.sqlite"),
  SEED_SIZE: z.coerce.number().int().min(30).max(2_000_000).default(300),
  AUTO_SEED: flag(true),
  DATA_DIR: z.string().min(1).default("./data"),
  SESSION_SECRET: z.string().min(16).optional(),
  TRUST_CDN_COUNTRY: flag(true),
  GEO_API_URL: z
    .string()
    .url()
    .refine((v) => v.includes("{ip}"), "must contain the {ip} placeholder")
    .optional(),
  GEO_API_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(800),
  PAYMENT_GATEWAY: z.enum(["sandbox", "portone", "paypal"]).default("sandbox"),
  MAIL_TRANSPORT: z.enum(["outbox", "smtp"]).default("outbox"),
  SMTP_URL: z.string().url().optional(),
  YOUTUBE_API_KEY: z.string().min(1).optional(),
  HOME_MODE: z.enum(["full", "service-stop"]).default("full"),
  LOG_REQUESTS: flag(true),
});

export type Env = z.infer<typeof schema>;

/** Parses the environment; throws an Error that names every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).map(([k, v]) => [k, v === "" ? undefined : v]));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.MAIL_TRANSPORT === "smtp" && !env.SMTP_URL) {
    throw new Error("Invalid environment configuration:\n  SMTP_URL: required when MAIL_TRANSPORT=smtp");
  }
  return env;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
