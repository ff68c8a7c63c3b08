import { describe, expect, it } from "vitest";
import { parseEnv } from "../../app/utils/env.server";

describe("configuration", () => {
  it("has working defaults: embedded SQLite, port 3000, sandbox payments, local mail outbox", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBe("file:./data/market.sqlite");
    expect(env.PORT).toBe(3000);
    expect(env.PAYMENT_GATEWAY).toBe("sandbox");
    expect(env.MAIL_TRANSPORT).toBe("outbox");
    expect(env.TRUST_CDN_COUNTRY).toBe(true);
  });

  it("names every bad variable", () => {
    expect(() => parseEnv({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(/PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/);
    expect(() => parseEnv({ GEO_API_URL: "https://geo.example/lookup" })).toThrow(/GEO_API_URL: must contain the \{ip\} placeholder/);
    expect(() => parseEnv({ MAIL_TRANSPORT: "smtp" })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ TRUST_CDN_COUNTRY: "maybe" })).toThrow(/TRUST_CDN_COUNTRY/);
  });

  it("accepts PostgreSQL URLs and boolean words", () => {
    const env = parseEnv({ DATABASE_URL: "postgres://u@127.0.0.1:5432/db", AUTO_SEED: "off", PORT: "8080" });
    expect(env.AUTO_SEED).toBe(false);
    expect(env.PORT).toBe(8080);
  });
});
