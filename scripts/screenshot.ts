// Takes a full-page screenshot of a page with Debian's Chromium: npx tsx scripts/screenshot.ts URL out.png [width]
import { chromium } from "@playwright/test";

const [url, out = "shot.png", width = "1280"] = process.argv.slice(2);
if (!url) {
  console.error("usage: scripts/screenshot.ts URL [out.png] [width]");
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
page.on("console", (m) => m.type() === "error" && console.error("console:", m.text()));
page.on("pageerror", (e) => console.error("pageerror:", e.message));
await page.goto(url, { waitUntil: "networkidle" });
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log(out);
