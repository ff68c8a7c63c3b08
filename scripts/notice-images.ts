/**
 * Draws the home's service-stop notice (issue 26, point 4), one picture per language, into public/pictures/: an SVG
 * whose words are glyph outlines (shaped by harfbuzz from the OFL fonts the demo catalog ships, Do Hyeon and Gowun
 * Dodum), so every visitor reads the same words whatever fonts their machine has. The words are the locale files'
 * `home.serviceStop.*`, which the page also uses as the picture's alternative text.
 *
 *   npx tsx scripts/notice-images.ts        writes public/pictures/service-stop-{ko,en}.svg
 *   npx tsx scripts/notice-images.ts --check answers 1 when a written picture differs from what would be drawn now
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import url from "node:url";
import en from "../app/i18n/locales/en/common.json" with { type: "json" };
import ko from "../app/i18n/locales/ko/common.json" with { type: "json" };

const require = createRequire(import.meta.url);
const harfbuzzPath = createRequire(require.resolve("subset-font")).resolve("harfbuzzjs");
const hb = (await import(url.pathToFileURL(harfbuzzPath).href)) as typeof import("harfbuzzjs");

const WIDTH = 1200;
const HEIGHT = 480;

function fontOf(pkg: string, file: string) {
  const bytes = fs.readFileSync(require.resolve(`${pkg}/${file}`));
  const face = new hb.Face(new hb.Blob(bytes));
  const font = new hb.Font(face);
  return { font, upem: face.upem };
}

const heading = fontOf("@expo-google-fonts/do-hyeon", "400Regular/DoHyeon_400Regular.ttf");
const body = fontOf("@expo-google-fonts/gowun-dodum", "400Regular/GowunDodum_400Regular.ttf");

/** One line of text as SVG path data at (x, baseline y), `size` px; answers the path and its width. */
function line(f: ReturnType<typeof fontOf>, text: string, size: number) {
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(f.font, buffer);
  const scale = size / f.upem;
  let pen = 0;
  const parts: { outline: string; x: number; y: number }[] = [];
  for (const g of buffer.getGlyphInfosAndPositions()) {
    const outline = f.font.glyphToPath(g.codepoint);
    if (outline) parts.push({ outline, x: pen + (g.xOffset ?? 0), y: g.yOffset ?? 0 });
    pen += g.xAdvance ?? 0;
  }
  const width = pen * scale;
  const draw = (x: number, y: number) =>
    parts
      .map(
        (p) =>
          `<path transform="translate(${round(x + p.x * scale)} ${round(y - p.y * scale)}) scale(${round(scale, 5)} ${round(-scale, 5)})" d="${p.outline}"/>`,
      )
      .join("");
  return { width, draw };
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const escapeXml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

function notice(strings: typeof en) {
  const s = strings.home.serviceStop;
  const left = 300;
  const title = line(heading, s.title, 66);
  const lines = [s.line1, s.line2].map((text) => line(body, text, 30));
  const brand = line(heading, strings.brand, 26);
  const words = strings.home.serviceStopAlt.replace("{{title}}", s.title).replace("{{line1}}", s.line1).replace("{{line2}}", s.line2);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
<title>${escapeXml(words)}</title>
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1b2360"/><stop offset="1" stop-color="#3a4ee0"/></linearGradient></defs>
<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#bg)"/>
<circle cx="1080" cy="60" r="210" fill="#ffffff" opacity="0.06"/><circle cx="150" cy="470" r="170" fill="#ffffff" opacity="0.05"/>
<g transform="translate(150 240)"><circle r="88" fill="#ffffff" opacity="0.14"/><circle r="70" fill="none" stroke="#ffffff" stroke-width="8"/><rect x="-27" y="-34" width="18" height="68" rx="4" fill="#ffffff"/><rect x="9" y="-34" width="18" height="68" rx="4" fill="#ffffff"/></g>
<g fill="#ffffff">${title.draw(left, 200)}</g>
<g fill="#e4e8ff">${lines.map((l, i) => l.draw(left, 262 + i * 46)).join("")}</g>
<rect x="${left}" y="375" width="${round(brand.width + 36)}" height="44" rx="22" fill="#ffffff" opacity="0.16"/>
<g fill="#ffffff">${brand.draw(left + 18, 406)}</g>
</svg>
`;
}

const out = path.resolve("public/pictures");
const pictures = { ko: notice(ko as typeof en), en: notice(en) };
if (process.argv.includes("--check")) {
  const stale = Object.entries(pictures).filter(([lang, svg]) => {
    const file = path.join(out, `service-stop-${lang}.svg`);
    return !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== svg;
  });
  for (const [lang] of stale) console.error(`public/pictures/service-stop-${lang}.svg is not what scripts/notice-images.ts draws`);
  process.exit(stale.length ? 1 : 0);
}
fs.mkdirSync(out, { recursive: true });
for (const [lang, svg] of Object.entries(pictures)) {
  fs.writeFileSync(path.join(out, `service-stop-${lang}.svg`), svg);
  console.log(`public/pictures/service-stop-${lang}.svg: ${svg.length} bytes`);
}
