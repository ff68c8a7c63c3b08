import os from "node:os";
import { describe, expect, it } from "vitest";
import { restartDelayMs } from "../../app/utils/cluster.server";
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

  it("gives the page micro-cache a byte budget: 8 MiB unless PAGE_CACHE_MB says otherwise, 0 for none", () => {
    expect(parseEnv({}).PAGE_CACHE_MB).toBe(8);
    expect(parseEnv({ PAGE_CACHE_MB: "0" }).PAGE_CACHE_MB).toBe(0);
    expect(parseEnv({ PAGE_CACHE_MB: "2.5" }).PAGE_CACHE_MB).toBe(2.5);
    expect(() => parseEnv({ PAGE_CACHE_MB: "-1" })).toThrow(/PAGE_CACHE_MB/);
    expect(() => parseEnv({ PAGE_CACHE_MB: "lots" })).toThrow(/PAGE_CACHE_MB/);
  });

  it("accepts PostgreSQL URLs and boolean words", () => {
    const env = parseEnv({ DATABASE_URL: "postgres://u@127.0.0.1:5432/db", AUTO_SEED: "off", PORT: "8080" });
    expect(env.AUTO_SEED).toBe(false);
    expect(env.PORT).toBe(8080);
  });

  it("builds every address on PUBLIC_URL, by default this machine's port", () => {
    expect(parseEnv({}).PUBLIC_URL).toBe("http://localhost:3000");
    expect(parseEnv({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(parseEnv({ PUBLIC_URL: "https://market.example/" }).PUBLIC_URL).toBe("https://market.example");
    expect(() => parseEnv({ PUBLIC_URL: "ftp://market.example" })).toThrow(/PUBLIC_URL/);
  });

  it("refuses live payments without PUBLIC_URL, and says so", () => {
    const live = { PAYMENT_GATEWAY: "live", PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "s", PAYPAL_WEBHOOK_ID: "w" };
    expect(() => parseEnv(live)).toThrow(/PUBLIC_URL: required when PAYMENT_GATEWAY=live/);
    expect(parseEnv({ ...live, PUBLIC_URL: "https://market.example" }).PAYMENT_GATEWAY).toBe("live");
  });

  it("trusts forwarded addresses only from the proxies TRUST_PROXY lists", () => {
    expect(parseEnv({}).TRUST_PROXY).toBeUndefined();
    expect(parseEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8,::1" }).TRUST_PROXY).toEqual(["loopback", "10.0.0.0/8", "::1"]);
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY/);
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.0/33" })).toThrow(/TRUST_PROXY/);
  });

  it("runs one worker per core unless WEB_CONCURRENCY says otherwise (1: no cluster)", () => {
    expect(parseEnv({}).WEB_CONCURRENCY).toBe(os.availableParallelism());
    expect(parseEnv({ WEB_CONCURRENCY: "1" }).WEB_CONCURRENCY).toBe(1);
    expect(parseEnv({ WEB_CONCURRENCY: "8" }).WEB_CONCURRENCY).toBe(8);
    expect(() => parseEnv({ WEB_CONCURRENCY: "0" })).toThrow(/WEB_CONCURRENCY/);
    expect(() => parseEnv({ WEB_CONCURRENCY: "two" })).toThrow(/WEB_CONCURRENCY/);
  });

  it("shares 8 renders at once among the workers, at least 2 each, unless RENDER_CONCURRENCY says otherwise", () => {
    expect(["1", "2", "3", "4", "16"].map((n) => parseEnv({ WEB_CONCURRENCY: n }).RENDER_CONCURRENCY)).toEqual([8, 4, 3, 2, 2]);
    expect(parseEnv({ WEB_CONCURRENCY: "2", RENDER_CONCURRENCY: "8" }).RENDER_CONCURRENCY).toBe(8);
  });

  it("replaces a dead worker at once, then backs off while they keep dying (up to 30 s)", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(restartDelayMs)).toEqual([0, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });
});
