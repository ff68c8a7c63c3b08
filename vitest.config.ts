import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/** Integration files that replace one of the app's modules (vi.mock): each needs a module graph of its own. */
const ISOLATED = ["tests/integration/abuse.test.ts"];

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

/** An integration project: the built app in production mode over a copy of a seeded template database per file. */
const integration = (name: string, test: { include: string[]; exclude?: string[]; isolate?: boolean }): TestProjectInlineConfiguration => ({
  resolve: { alias },
  test: {
    name,
    globals: true,
    environment: "node" as const,
    // The built app runs as in production (React's production server renderer, as `npm start` uses).
    env: { NODE_ENV: "production" as const },
    globalSetup: ["./tests/support/global-setup.ts"],
    setupFiles: ["./tests/support/setup-integration.ts"],
    // For hung tests, not for speed: CI is a busy 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...test,
  },
});

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          globals: true,
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          // Node by default; a file that needs a DOM says so (`// @vitest-environment jsdom`): jsdom costs ~0.5 s per file.
          environment: "node",
          setupFiles: ["./tests/support/setup-unit.ts"],
        },
      },
      integration("integration", {
        include: ["tests/integration/**/*.test.ts"],
        exclude: ISOLATED,
        // The files share one module graph (one import of the built app, its code kept warm by the JIT): half the
        // time and CPU of a fresh graph per file. Each file still has its own database (tests/support/db.ts) and
        // resets what it changes; files that replace a module (vi.mock) run in the isolated project below.
        isolate: false,
      }),
      integration("integration-isolated", { include: ISOLATED }),
    ],
  },
});
