import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sessionSecret } from "../../app/utils/cookies.server";
import { parseEnv } from "../../app/utils/env.server";

describe("the generated session secret", () => {
  it("is made once per data folder, private, and the same for every process that reads it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-"));
    try {
      const env = parseEnv({ DATA_DIR: dir });
      const first = sessionSecret(env);
      expect(first).toMatch(/^[\w-]{43}$/);
      expect(sessionSecret(env)).toBe(first);
      expect(fs.readdirSync(dir)).toEqual([".session-secret"]);
      expect(fs.statSync(path.join(dir, ".session-secret")).mode & 0o777).toBe(0o600);
      // A process that finds the file (another worker made it first) takes that one.
      fs.writeFileSync(path.join(dir, ".session-secret"), "made-by-another-worker");
      expect(sessionSecret(env)).toBe("made-by-another-worker");
      expect(sessionSecret(parseEnv({ DATA_DIR: dir, SESSION_SECRET: "s".repeat(16) }))).toBe("s".repeat(16));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
