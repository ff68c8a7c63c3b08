import { afterEach, vi } from "vitest";

// An unexpected console.error fails the test that caused it (a test that expects one spies on it first).
let errors: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};
afterEach(() => {
  const seen = errors;
  errors = [];
  if (seen.length && !vi.isMockFunction(console.error)) {
    throw new Error(`console.error was called: ${seen.map((a) => a.map(String).join(" ")).join("\n")}`);
  }
});
