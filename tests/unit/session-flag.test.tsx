// @vitest-environment jsdom
import { act, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearSessionFlag, SIGNED_IN_FLAG, useSessionFlag } from "../../app/utils/session-flag";

function Probe({ signedIn }: { signedIn: boolean }) {
  useSessionFlag(signedIn);
  return null;
}

describe("the local signed-in flag (spec section 4)", () => {
  const reload = vi.fn();
  const original = window.location;
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    reload.mockReset();
    Object.defineProperty(window, "location", { configurable: true, value: { ...original, reload } });
  });
  afterEach(() => {
    Object.defineProperty(window, "location", { configurable: true, value: original });
  });

  it("is set while signed in and left alone for a visitor who never signed in", () => {
    render(<Probe signedIn />);
    expect(localStorage.getItem(SIGNED_IN_FLAG)).toBe("1");
    localStorage.clear();
    render(<Probe signedIn={false} />);
    expect(reload).not.toHaveBeenCalled();
  });

  it("found set while the session is gone: cleared, order data dropped, page reloaded", () => {
    localStorage.setItem(SIGNED_IN_FLAG, "1");
    sessionStorage.setItem("orderItems", "[1,2]");
    render(<Probe signedIn={false} />);
    expect(localStorage.getItem(SIGNED_IN_FLAG)).toBe("0");
    expect(sessionStorage.getItem("orderItems")).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("signing out in this tab does not reload it; signing out in another tab reloads this one", () => {
    render(<Probe signedIn />);
    clearSessionFlag();
    expect(localStorage.getItem(SIGNED_IN_FLAG)).toBe("0");
    act(() => {
      window.dispatchEvent(new StorageEvent("storage", { key: SIGNED_IN_FLAG, newValue: "0" }));
    });
    expect(reload).toHaveBeenCalledTimes(1);
    reload.mockReset();
    render(<Probe signedIn={false} />);
    expect(reload).not.toHaveBeenCalled();
  });
});
