// Lighthouse (mobile settings, Debian's Chromium) on a running store:
//   node --import tsx bench/lighthouse.ts http://127.0.0.1:3000 / /audio "/contents/audio?code=AU0000002"
// Lighthouse 12.8.2 is the newest that runs on Node 20; it is fetched by npx, not a project dependency.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [base, ...paths] = process.argv.slice(2);
if (!base || !paths.length) {
  console.error("usage: bench/lighthouse.ts BASE PATH...");
  process.exit(2);
}
const flags =
  "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";
const results: Record<string, unknown> = {};
for (const p of paths) {
  const out = path.join(os.tmpdir(), `lh-${Date.now()}.json`);
  execFileSync(
    "npx",
    [
      "-y",
      "lighthouse@12.8.2",
      `${base}${p}`,
      "--quiet",
      "--output=json",
      `--output-path=${out}`,
      `--chrome-flags=${flags}`,
      "--only-categories=performance,accessibility,best-practices,seo",
    ],
    { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" }, stdio: ["ignore", "ignore", "inherit"] },
  );
  const lhr = JSON.parse(fs.readFileSync(out, "utf8"));
  fs.rmSync(out);
  const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const audit = (a: string) => lhr.audits[a]?.displayValue;
  results[p] = {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    fcp: audit("first-contentful-paint"),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
  };
}
console.log(JSON.stringify(results, null, 2));
