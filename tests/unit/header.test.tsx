// @vitest-environment jsdom
import { createRemixStub } from "@remix-run/testing";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SiteHeader } from "../../app/components/site-header";
import { renderWithI18n } from "../support/render";

let headerProps: Parameters<typeof SiteHeader>[0];
function HeaderUnderTest() {
  return <SiteHeader {...headerProps} />;
}
const Stub = createRemixStub([{ path: "*", Component: HeaderUnderTest }]);

function renderHeader(props: Parameters<typeof SiteHeader>[0], path = "/audio?x=1") {
  headerProps = props;
  return renderWithI18n(<Stub initialEntries={[path]} future={{ v3_singleFetch: true }} />);
}

describe("site header", () => {
  it("links the six categories, searches into /search/all and counts the cart", () => {
    renderHeader({ locale: "en", cartCount: 3, viewer: null });
    const nav = screen.getByRole("navigation", { name: "Categories" });
    expect(
      within(nav)
        .getAllByRole("link")
        .map((a) => a.getAttribute("href")),
    ).toEqual(["/video", "/icon", "/audio", "/package", "/benefit", "/font", "/price", "/support"]);
    expect(screen.getByRole("search").getAttribute("action")).toBe("/search/all");
    expect(screen.getByRole("link", { name: "Cart, 3 items" })).toBeInTheDocument();
  });

  it("shows sign-in with a return address when signed out, and the nickname with sign-out when signed in", () => {
    const { unmount } = renderHeader({ locale: "en", cartCount: 0, viewer: null });
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
      `/login?redirectTo=${encodeURIComponent("/audio?x=1")}`,
    );
    unmount();
    renderHeader({ locale: "en", cartCount: 0, viewer: { nickname: "Mina" } });
    expect(screen.getByRole("link", { name: "Hello, Mina" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
  });

  it("switches language through the language query on the current address", () => {
    renderHeader({ locale: "en", cartCount: 0, viewer: null });
    const group = screen.getByRole("group", { name: "Language" });
    const [ko, en] = within(group).getAllByRole("link");
    expect(ko.getAttribute("href")).toBe("/audio?x=1&language=ko");
    expect(en.getAttribute("aria-current")).toBe("true");
  });
});
