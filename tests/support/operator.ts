import { expect } from "vitest";
import { DEMO } from "../../app/db/seed/index.server";
import type { createTestApp } from "./app";

type Call = Awaited<ReturnType<typeof createTestApp>>;
export type OperatorRoleName = "admin" | "support" | "catalog" | "finance";

/** The seeded demo operator of a role (operator@example.com is the administrator). */
export const OPERATOR_EMAIL: Record<OperatorRoleName, string> = Object.fromEntries(DEMO.operators.map((o) => [o.role, o.email])) as Record<
  OperatorRoleName,
  string
>;

/**
 * Signs an operator in through POST /admin/login like a browser without JavaScript and answers the Cookie header
 * for the console (`op`). Each caller passes its own address so one test's failures never slow another.
 */
export async function signInOperator(call: Call, role: OperatorRoleName, ip: string, password: string = DEMO.password): Promise<string> {
  const res = await call("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: OPERATOR_EMAIL[role], password }),
    ip,
  });
  expect(res.status, `operator sign-in of ${role}`).toBe(302);
  const op = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("op="));
  expect(op, "the op cookie").toBeTruthy();
  return op as string;
}

/** A console form post with the operator's cookie. */
export function adminPost(call: Call, cookie: string, path: string, fields: Record<string, string>, ip = "198.51.100.77") {
  return call(path, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    ip,
  });
}
