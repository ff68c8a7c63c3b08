import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3200);
const DATA = process.env.E2E_DATA_DIR ?? ".cache/e2e";

/** End-to-end tests drive Debian's Chromium headless shell (never a downloaded browser) against the built store. */
export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: process.env.E2E_OUTPUT ?? "./test-results",
  workers: 1,
  retries: 0,
  // CI runs on a busy shared machine: a step that takes 3 s on a quiet one can take 20 under load. The limits are
  // for hung tests, not for speed (speed is measured by bench/, not by timed tests).
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.PW_JSON_OUTPUT ? [["list"], ["json", { outputFile: process.env.PW_JSON_OUTPUT }]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    headless: true,
    launchOptions: {
      // Debian's chromium-headless-shell (scripts/ensure-system.sh installs it): the headless build Playwright uses itself.
      executablePath: process.env.CHROME_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // A fresh data folder (a previous server over it stopped first), then server.ts with the node flag of `npm run
    // serve`; the malloc settings below (package.json; docs/performance.md).
    command: "bash scripts/e2e-server.sh",
    url: `http://127.0.0.1:${PORT}/healthz`,
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: "65536",
      DATABASE_URL: `file:${DATA}/market.sqlite`,
      DATA_DIR: DATA,
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      SEED_SIZE: "300",
      // One process: the suite is one browser at a time; a second worker only compiled the app a second time.
      // (Several workers behind one port are tested in tests/integration/cluster.test.ts.)
      WEB_CONCURRENCY: "1",
      LOG_REQUESTS: "false",
      SESSION_SECRET: "e2e-secret-e2e-secret",
      // The virtual-account expiry job every second, so a test can see a deadline pass.
      VBANK_EXPIRY_INTERVAL_S: "1",
    },
    reuseExistingServer: false,
    // A first start migrates and seeds: some 40 s on a busy 2-core machine, over 60 s with a
    // CPU-bound job beside it (Playwright then killed the server half-started). E2E_START_TIMEOUT_MS overrides.
    timeout: Number(process.env.E2E_START_TIMEOUT_MS ?? 300_000),
    // Stopped with SIGTERM to its process group (the primary stops its workers, a seed child ends), then SIGKILL
    // after 15 s: nothing of it keeps writing into DATA_DIR after the run.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
