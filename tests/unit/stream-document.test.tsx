import { afterEach, describe, expect, it, vi } from "vitest";
import { streamDocument } from "../../app/entry.server";

/**
 * The document stream's abort timer (issue 25, fuzz under load): a render that waits for the CPU longer than the
 * timer must still answer its own status, not a 500 that no log explains.
 */
function Broken(): JSX.Element {
  throw new Error("broken part");
}

describe("streamDocument", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const options = () => ({ status: 400, headers: new Headers(), waitForAll: false, signal: new AbortController().signal });

  it("answers the route's status when the render starts after the abort delay has passed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const answer = streamDocument(<p>form with errors</p>, options());
    // The machine is busy: the timers run before React gets to render the shell.
    vi.advanceTimersByTime(60_000);
    vi.useRealTimers();
    const response = await answer;
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("form with errors");
  });

  it("answers a document whose render throws as a 500 and logs it", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(streamDocument(<Broken />, options())).rejects.toThrow("broken part");
    error.mockRestore();
  });
});
