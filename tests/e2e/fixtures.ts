import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

/** Every page a test opens must log no console errors and pass axe-core (WCAG 2.1 A/AA). */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (m) => {
        // A page that answers 404 or 503 on purpose logs "Failed to load resource"; failed sub-resources
        // are caught below by their responses instead.
        if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
      });
      page.on("response", (r) => {
        if (r.status() < 400 || r.request().resourceType() === "document") return;
        // A form answered with a validation error (400, 409, 429) through Remix's data request is the page working.
        const formAnswer = r.request().method() === "POST" && new URL(r.url()).pathname.endsWith(".data") && r.status() < 500;
        if (!formAnswer) errors.push(`${r.status()} ${r.url()}`);
      });
      page.on("pageerror", (e) => errors.push(e.message));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, "axe-core violations").toEqual([]);
}

/** Sets the storefront language the way a visitor does: through the language query (then removed). */
export async function openIn(page: Page, path: string, language: "ko" | "en") {
  const sep = path.includes("?") ? "&" : "?";
  await page.goto(`${path}${sep}language=${language}`);
  await expect(page).toHaveURL((url) => !url.searchParams.has("language"));
  await expect(page.locator("html")).toHaveAttribute("lang", language);
}

export { expect };
