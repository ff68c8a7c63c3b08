import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

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
      {
        resolve: { alias },
        test: {
          name: "integration",
          globals: true,
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          // The built app runs as in production (React's production server renderer, as `npm start` uses).
          env: { NODE_ENV: "production" },
          globalSetup: ["./tests/support/global-setup.ts"],
          setupFiles: ["./tests/support/setup-integration.ts"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
