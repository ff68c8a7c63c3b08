import { expect } from "vitest";
import { DEMO } from "../../app/db/seed/index.server";
import type { createTestApp } from "./app";

type Call = Awaited<ReturnType<typeof createTestApp>>;

/**
 * Signs in through POST /login like a browser without JavaScript. Answers the Cookie header to send next and
 * the gt cookie's value (what API callers send as authorizationToken). Each caller passes its own address so
 * the sign-in limit of one test never blocks another.
 */
export async function signIn(call: Call, email: string, ip: string, password: string = DEMO.password) {
  const res = await call("/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password }),
    ip,
  });
  expect(res.status, `sign-in of ${email}`).toBe(302);
  const set = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  const cookie = set.filter((c) => !c.endsWith("=")).join("; ");
  const gt = set.find((c) => c.startsWith("gt=")) ?? "";
  return { cookie, token: gt.slice(3) };
}
