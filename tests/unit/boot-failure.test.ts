import { describe, expect, it } from "vitest";
import { StartupError } from "../../app/db/boot.server";
import { cannotStartLine } from "../../app/utils/boot-failure.server";

describe("the line a failed start-up prints", () => {
  it("is one line naming the reason, whatever the error", () => {
    expect(cannotStartLine(new Error("Invalid environment configuration:\n  PORT: Expected number, received nan\n  HOST: Required"))).toBe(
      "cannot start: Invalid environment configuration: PORT: Expected number, received nan; HOST: Required",
    );
    expect(
      cannotStartLine(new StartupError("DATABASE_URL postgres://u:***@db:5432/m: the database cannot be reached: x (ECONNREFUSED)")),
    ).toBe("cannot start: DATABASE_URL postgres://u:***@db:5432/m: the database cannot be reached: x (ECONNREFUSED)");
    const refused = Object.assign(
      new AggregateError([new Error("connect ECONNREFUSED ::1:5432"), new Error("connect ECONNREFUSED 127.0.0.1:5432")], ""),
      {
        code: "ECONNREFUSED",
      },
    );
    expect(cannotStartLine(refused)).toBe("cannot start: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432");
    expect(cannotStartLine(Object.assign(new Error(""), { code: "EADDRINUSE" }))).toBe("cannot start: EADDRINUSE");
    expect(cannotStartLine("plain")).toBe("cannot start: plain");
    for (const error of [new Error("a\nb\n    at x (y.ts:1:1)"), new TypeError("boom")]) expect(cannotStartLine(error)).not.toContain("\n");
  });
});
