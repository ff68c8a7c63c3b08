import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/**
 * The service-stop pictures in public/pictures are what scripts/notice-images.ts draws from the locale files' words
 * (issue 26, point 4): changing the words without drawing the pictures again fails here, so the picture and its
 * alternative text never disagree.
 */
describe("service-stop notice pictures", () => {
  it("are drawn from the current words", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/notice-images.ts", "--check"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  }, 60_000);
});
