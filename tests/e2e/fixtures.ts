import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
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

/** axe-core's own bundle, evaluated in each document a check runs in (the same engine @axe-core/playwright injects). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/**
 * Best-practice rules run beside the WCAG tags (issue 26, point 8): every piece of content sits in a landmark
 * (`region`), and landmarks of one kind have labels that tell them apart (`landmark-unique`). axe-core tags them
 * best-practice only, so the tag list alone leaves them out; a rule enabled by name runs with the tags.
 */
const AXE_RULES = { region: { enabled: true }, "landmark-unique": { enabled: true } };

/**
 * axe-core over the whole document (WCAG 2.1 A/AA). axe runs in the page itself and reports its violations only:
 * @axe-core/playwright's builder also serialised every passing node and opened a blank page per check to merge
 * frames, four times the cost, for pages that have no frames (the store embeds none; a frame would fail the check
 * below rather than go unchecked).
 */
export async function expectAccessible(page: Page) {
  expect(page.frames().length, "frames on the page (axe here checks the top document only)").toBe(1);
  const hasAxe = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ tags, rules }) => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run(document, {
        runOnly: { type: "tag", values: tags },
        rules,
        resultTypes: ["violations"],
        iframes: false,
      });
      return result.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target.map(String) })) }));
    },
    { tags: AXE_TAGS, rules: AXE_RULES },
  );
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, "axe-core violations").toEqual([]);
}

type AxeViolation = { id: string; help: string; nodes: { target: unknown[] }[] };

/** Sets the storefront language the way a visitor does: through the language query (then removed). */
export async function openIn(page: Page, path: string, language: "ko" | "en") {
  const sep = path.includes("?") ? "&" : "?";
  await page.goto(`${path}${sep}language=${language}`);
  await expect(page).toHaveURL((url) => !url.searchParams.has("language"));
  await expect(page.locator("html")).toHaveAttribute("lang", language);
}

export { expect };
