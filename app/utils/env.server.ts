import net from "node:net";
import os from "node:os";
import { z } from "zod";

const isProxyEntry = (entry: string) => {
  if (["loopback", "linklocal", "uniquelocal"].includes(entry)) return true;
  const [address, bits, ...rest] = entry.split("/");
  if (rest.length || !net.isIP(address)) return false;
  if (bits === undefined) return true;
  const max = net.isIPv4(address) ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
};

/** Boolean environment values: "1/true/yes/on" and "0/false/no/off". */
const flag = (fallback: boolean) =>
  z
    .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
    .optional()
    .transform((v) => (v === undefined ? fallback : ["1", "true", "yes", "on"].includes(v)));

/**
 * STORAGE_URL: `s3://<bucket>[/<prefix>][?endpoint=<http(s) address>&region=<region>&force_path_style=1]`, an
 * S3-compatible object store for media, previews, uploads and downloads (credentials from AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY or the SDK's other sources). Unset: the local disk under DATA_DIR.
 */
const storageUrl = z
  .string()
  .transform((value, ctx) => {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be s3://bucket/prefix?endpoint=...&region=..." });
      return z.NEVER;
    }
    const known = new Set(["endpoint", "region", "force_path_style"]);
    const unknown = [...u.searchParams.keys()].filter((k) => !known.has(k));
    const endpoint = u.searchParams.get("endpoint") ?? undefined;
    const pathStyle = u.searchParams.get("force_path_style");
    const prefix = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, "");
    // URL() resolves "a/../b" to "b": the written form is checked too.
    const written = value.replace(/^s3:\/\/[^/?]*/, "").split("?")[0];
    const problem =
      u.protocol !== "s3:"
        ? "must start with s3://"
        : !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(u.hostname)
          ? "must name a bucket (3 to 63 lower-case letters, digits, dots and hyphens): s3://bucket/prefix"
          : unknown.length
            ? `unknown option ${unknown.join(", ")} (endpoint, region, force_path_style)`
            : endpoint && !/^https?:\/\/[^/]+/.test(endpoint)
              ? "endpoint must be an http:// or https:// address"
              : pathStyle !== null && !["0", "1", "true", "false"].includes(pathStyle)
                ? "force_path_style must be 1 or 0"
                : [prefix, written].some((p) => p.split("/").some((part) => part === "." || part === "..")) ||
                    /\/\//.test(prefix) ||
                    prefix.includes("\\")
                  ? "the prefix must be plain folder names"
                  : null;
    if (problem) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      return z.NEVER;
    }
    return {
      bucket: u.hostname,
      prefix: prefix ? `${prefix}/` : "",
      endpoint: endpoint?.replace(/\/+$/, ""),
      region: u.searchParams.get("region") || "us-east-1",
      // An endpoint of our own (MinIO, s3rver...) usually has no bucket sub-domains: path style unless told otherwise.
      forcePathStyle: pathStyle === null ? Boolean(endpoint) : ["1", "true"].includes(pathStyle),
    };
  })
  .optional();

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** The store's public origin: every address the store hands out (gateways, mail, canonical) is built on it. */
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), "must be an http:// or https:// address")
    .transform((v) => v.replace(/\/+$/, ""))
    .optional(),
  /**
   * Proxies whose X-Forwarded-For is believed: a comma-separated list of addresses, CIDR ranges or the names
   * loopback, linklocal, uniquelocal. Unset: none (the client is the connection's address).
   */
  TRUST_PROXY: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every(isProxyEntry), "must list IP addresses, CIDR ranges, loopback, linklocal or uniquelocal")
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres:\/\/|postgresql:\/\/)/, "must start with file: or postgres://")
    .default("file:./data/market.sqlite"),
  SEED_SIZE: z.coerce.number().int().min(30).max(2_000_000).default(300),
  AUTO_SEED: flag(true),
  DATA_DIR: z.string().min(1).default("./data"),
  STORAGE_URL: storageUrl,
  /** Where the demo's encoded video clips are kept for other data folders; unset: the system's temporary folder; "off": nowhere. */
  MEDIA_CACHE_DIR: z.string().min(1).optional(),
  SESSION_SECRET: z.string().min(16).optional(),
  TRUST_CDN_COUNTRY: flag(true),
  GEO_API_URL: z
    .string()
    .url()
    .refine((v) => v.includes("{ip}"), "must contain the {ip} placeholder")
    .optional(),
  GEO_API_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(800),
  /** sandbox: the built-in offline test gateway for every method; live: PortOne V2 and PayPal, as configured below. */
  PAYMENT_GATEWAY: z.enum(["sandbox", "live"]).default("sandbox"),
  PORTONE_API_SECRET: z.string().min(1).optional(),
  PORTONE_WEBHOOK_SECRET: z.string().min(1).optional(),
  PORTONE_STORE_ID: z.string().min(1).optional(),
  PORTONE_CHANNEL_CARD: z.string().min(1).optional(),
  PORTONE_CHANNEL_PHONE: z.string().min(1).optional(),
  PORTONE_CHANNEL_KAKAOPAY: z.string().min(1).optional(),
  PORTONE_CHANNEL_VBANK: z.string().min(1).optional(),
  PORTONE_TEST_CHANNELS: flag(true),
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  PAYPAL_WEBHOOK_ID: z.string().min(1).optional(),
  PAYPAL_MODE: z.enum(["sandbox", "live"]).default("sandbox"),
  /** The sandbox gateway delivers each webhook this many times (same webhook-id), each after a random delay. */
  SANDBOX_WEBHOOK_REPEAT: z.coerce.number().int().min(1).max(5).default(1),
  SANDBOX_WEBHOOK_MAX_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /** How often the virtual-account expiry job runs (seconds; 0 turns it off on this server). */
  VBANK_EXPIRY_INTERVAL_S: z.coerce.number().int().min(0).max(86_400).default(60),
  /** The company account service the editor's sign-in asks (docs/editor-sign-in.md); unset: the built-in accounts. */
  COMPANY_ACCOUNTS_URL: z.string().url().optional(),
  COMPANY_ACCOUNTS_TOKEN: z.string().min(1).optional(),
  MAIL_TRANSPORT: z.enum(["outbox", "smtp"]).default("outbox"),
  SMTP_URL: z.string().url().optional(),
  /** The sender of the store's mail. */
  MAIL_FROM: z.string().min(3).default("VideoAsset Market <no-reply@videoasset.example>"),
  /** How often the mail worker looks for queued mail (milliseconds; 0 turns it off on this server). */
  MAIL_POLL_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  YOUTUBE_API_KEY: z.string().min(1).optional(),
  HOME_MODE: z.enum(["full", "service-stop"]).default("full"),
  LOG_REQUESTS: flag(true),
  /** The page micro-cache's budget in MiB (bodies, headers and keys of the anonymous pages it keeps); 0 keeps none. */
  PAGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(8),
  /**
   * Renders (loaders and the page's shell) running at once in each worker; the others wait in arrival order
   * (docs/performance.md). Default: 8 per machine shared among the workers, at least 2 each (8 with one process,
   * 4 with two workers).
   */
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(1024).optional(),
  /** Requests waiting for a render slot before the next is refused with 503. */
  RENDER_QUEUE_MAX: z.coerce.number().int().min(0).max(100_000).default(2000),
  /**
   * Worker processes serving requests (node:cluster, app/utils/cluster.server.ts); default one per core. 1 serves
   * in the started process itself, with no primary.
   */
  WEB_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .default(() => os.availableParallelism()),
});

/** The parsed environment; PUBLIC_URL is always set (default http://localhost:PORT). */
export type Env = Omit<z.infer<typeof schema>, "PUBLIC_URL" | "RENDER_CONCURRENCY"> & {
  PUBLIC_URL: string;
  RENDER_CONCURRENCY: number;
  /** Whether PUBLIC_URL was configured (false: the default http://localhost:PORT). */
  publicUrlConfigured: boolean;
};

/** Renders at once per worker unless RENDER_CONCURRENCY says: 8 per machine shared among the workers, at least 2. */
export const defaultRenderConcurrency = (workers: number) => Math.max(2, Math.ceil(8 / workers));

/** Parses the environment; throws an Error that names every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).map(([k, v]) => [k, v === "" ? undefined : v]));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const { PUBLIC_URL, RENDER_CONCURRENCY, ...rest } = result.data;
  const env: Env = {
    ...rest,
    PUBLIC_URL: PUBLIC_URL ?? `http://localhost:${rest.PORT}`,
    publicUrlConfigured: PUBLIC_URL !== undefined,
    RENDER_CONCURRENCY: RENDER_CONCURRENCY ?? defaultRenderConcurrency(rest.WEB_CONCURRENCY),
  };
  if (env.MAIL_TRANSPORT === "smtp" && !env.SMTP_URL) {
    throw new Error("Invalid environment configuration:\n  SMTP_URL: required when MAIL_TRANSPORT=smtp");
  }
  if (env.PAYMENT_GATEWAY === "live") {
    if (!PUBLIC_URL)
      throw new Error(
        "Invalid environment configuration:\n  PUBLIC_URL: required when PAYMENT_GATEWAY=live (the store's public https address, for the gateways' returns and webhooks)",
      );
    const portone = [env.PORTONE_API_SECRET, env.PORTONE_WEBHOOK_SECRET, env.PORTONE_STORE_ID];
    const paypal = [env.PAYPAL_CLIENT_ID, env.PAYPAL_CLIENT_SECRET, env.PAYPAL_WEBHOOK_ID];
    const complete = (group: unknown[]) => group.every(Boolean);
    const partial = (group: unknown[]) => group.some(Boolean) && !complete(group);
    if (partial(portone))
      throw new Error("Invalid environment configuration:\n  PORTONE_*: API secret, webhook secret and store id go together");
    if (partial(paypal))
      throw new Error("Invalid environment configuration:\n  PAYPAL_*: client id, client secret and webhook id go together");
    if (!complete(portone) && !complete(paypal))
      throw new Error("Invalid environment configuration:\n  PAYMENT_GATEWAY: live needs PortOne or PayPal credentials");
  }
  return env;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
