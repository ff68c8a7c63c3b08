// @vitest-environment jsdom
import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ToTopButton } from "../../app/components/to-top";
import { renderWithI18n } from "../support/render";

describe("to-top button", () => {
  it("appears only once the page is scrolled more than 50 px and scrolls back up", () => {
    const scrollTo = vi.fn();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    renderWithI18n(<ToTopButton />);
    expect(screen.queryByRole("button", { name: /back to top/i })).toBeNull();
    act(() => {
      Object.defineProperty(window, "scrollY", { value: 50, configurable: true });
      window.dispatchEvent(new Event("scroll"));
    });
    expect(screen.queryByRole("button", { name: /back to top/i })).toBeNull();
    act(() => {
      Object.defineProperty(window, "scrollY", { value: 51, configurable: true });
      window.dispatchEvent(new Event("scroll"));
    });
    fireEvent.click(screen.getByRole("button", { name: /back to top/i }));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: "smooth" });
  });
});
