import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { operatorSignIn } from "../../app/market/operators/accounts.server";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";

const run = promisify(execFile);

/** `npm run operator:create`: the only way a production database gets its first operator. */
describe(`npm run operator:create on ${ENGINE}`, () => {
  let db: DB;
  let url: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, url, drop } = t);
  });
  afterAll(async () => drop());

  const create = (args: string[], password: string) =>
    run("node", ["--import", "tsx", "scripts/operator-create.ts", ...args], {
      env: { ...process.env, DATABASE_URL: url, OPERATOR_PASSWORD: password, NODE_ENV: "production" },
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );

  it("creates an operator who can sign in, and refuses a weak password, a taken e-mail and a missing argument", async () => {
    const ok = await create(["--email", "Chief@Example.com", "--name", "Chief", "--role", "admin"], "Strong-pass-2026!");
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain("operator chief@example.com created (admin)");
    const signedIn = await operatorSignIn(db, { email: "chief@example.com", password: "Strong-pass-2026!", ip: "198.51.100.150" });
    expect(signedIn.ok && signedIn.operator.role).toBe("admin");

    const weak = await create(["--email", "weak@example.com", "--name", "Weak", "--role", "support"], "password");
    expect(weak.code).toBe(1);
    expect(weak.out).toContain("the password must be 10 to 128 characters");
    const taken = await create(["--email", "chief@example.com", "--name", "Again", "--role", "admin"], "Strong-pass-2026!");
    expect(taken.code).toBe(1);
    expect(taken.out).toContain("already exists");
    const role = await create(["--email", "x@example.com", "--name", "X", "--role", "root"], "Strong-pass-2026!");
    expect(role.code).toBe(1);
    const usage = await create(["--email", "y@example.com"], "Strong-pass-2026!");
    expect(usage.code).toBe(2);
    expect(usage.out).toContain("usage: npm run operator:create");
    const rows = await db
      .selectFrom("operators")
      .select("email")
      .where("email", "in", ["weak@example.com", "x@example.com", "y@example.com"])
      .execute();
    expect(rows).toEqual([]);
  }, 60_000);
});
