import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../../app/utils/env.server";
import { returnOrigin } from "../../app/utils/origin.server";

/** Issue 26, point 9: where a gateway sends the payer back, from the Host the payer's request named. */
const contextOf = (vars: Record<string, string>, sandbox = true) =>
  ({ env: parseEnv({ PORT: "3000", ...vars }), payments: { sandbox: sandbox ? {} : undefined } }) as unknown as Pick<
    AppLoadContext,
    "env" | "payments"
  >;
const from = (host: string | null, context = contextOf({})) =>
  returnOrigin(new Request("http://localhost:3000/pay03", { headers: host === null ? {} : { host } }), context);

describe("returnOrigin", () => {
  it("in test mode without PUBLIC_URL, a loopback host is where the payer returns", () => {
    expect(from("127.0.0.1:3000")).toBe("http://127.0.0.1:3000");
    expect(from("127.8.0.1:3000")).toBe("http://127.8.0.1:3000");
    expect(from("[::1]:3000")).toBe("http://[::1]:3000");
    expect(from("LOCALHOST:4000")).toBe("http://localhost:4000");
    expect(from("localhost:3000")).toBe("http://localhost:3000");
  });

  it("any other host is ignored: the default origin", () => {
    for (const host of [
      "evil.example",
      "evil.example:3000",
      "127.0.0.1.evil.example",
      "localhost.evil.example:3000",
      "192.168.1.20:3000",
      "10.0.0.1",
      "[::2]:3000",
      "[::ffff:127.0.0.1]:3000",
      "127.0.0.1:3000/evil",
      "127.0.0.1@evil.example",
      "user@127.0.0.1:3000",
      "256.0.0.1:3000",
      "",
    ])
      expect(from(host), host).toBe("http://localhost:3000");
    expect(from(null)).toBe("http://localhost:3000");
  });

  it("PUBLIC_URL set, or the live gateways, keep the public origin whatever the host", () => {
    expect(from("127.0.0.1:3000", contextOf({ PUBLIC_URL: "https://market.example" }))).toBe("https://market.example");
    expect(from("127.0.0.1:3000", contextOf({ PUBLIC_URL: "http://localhost:3000" }))).toBe("http://localhost:3000");
    expect(from("127.0.0.1:3000", contextOf({}, false))).toBe("http://localhost:3000");
  });
});
