import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { iconSvg, posterSvg } from "../../app/db/seed/media.server";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { MEDIA_SVG_CSP, serveMedia } from "../../app/integrations/storage/serve.server";
import { checkMediaFile } from "../../app/market/catalog/media-files.server";
import { makePicture } from "../../app/market/catalog/media-previews.server";
import { SVG_LIMITS, sanitizeSvg } from "../../app/market/catalog/svg-sanitize.server";
import { waveformSvg } from "../../app/market/catalog/waveform";

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const bytes = (text: string) => new TextEncoder().encode(text);
const svg = (body: string, attrs = "") => `<svg ${NS}${attrs ? ` ${attrs}` : ""}>${body}</svg>`;

/**
 * Known SVG attacks (OWASP's and Cure53's SVG lists, the classic XXE and billion-laughs files, and the parser
 * tricks a regular expression misses: namespace prefixes, character references, CSS escapes). Each must be refused.
 */
const HOSTILE: [string, string][] = [
  ["plain script", svg("<script>alert(1)</script>")],
  ["namespace-prefixed script (s: bound to SVG)", svg('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>')],
  ["whole document under an svg: prefix", '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg:svg>'],
  ["upper-case SCRIPT in SVG's namespace", svg("<SCRIPT>alert(1)</SCRIPT>")],
  ["XHTML script", svg('<html:script xmlns:html="http://www.w3.org/1999/xhtml">alert(1)</html:script>')],
  ["script inside an element of another namespace", svg('<x:data xmlns:x="urn:x"><script>alert(1)</script></x:data>')],
  ["onload on the root", `<svg ${NS} onload="alert(1)"><rect width="1" height="1"/></svg>`],
  ["event attribute on a shape", svg('<rect width="4" height="4" onmouseover="alert(1)"/>')],
  ["namespaced event attribute", svg('<rect x:onclick="alert(1)" xmlns:x="urn:x"/>')],
  ["animate turning href into javascript:", svg('<animate attributeName="href" values="javascript:alert(1)"/>')],
  ["set of xlink:href", svg('<set attributeName="xlink:href" to="javascript:alert(1)"/>', XLINK)],
  ["set of an event attribute", svg('<set attributeName="onmouseover" to="alert(1)"/>')],
  ["animate of style", svg('<animate attributeName="style" to="fill:url(https://evil.test/a)"/>')],
  ["animateTransform aimed at href", svg('<animateTransform attributeName="href" type="rotate" to="javascript:alert(1)"/>')],
  ["animate with a javascript: value among its values", svg('<animate attributeName="fill" values="red;javascript:alert(1)"/>')],
  ["javascript: spelled with a character reference", svg('<set attributeName="fill" to="&#x6A;ava&#x09;script:alert(1)"/>')],
  ["external image", svg('<image href="https://evil.test/x.png" width="10" height="10"/>')],
  ["external use (xlink)", svg('<use xlink:href="https://evil.test/sprite.svg#a"/>', XLINK)],
  ["data: use", svg('<use href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#x"/>')],
  ["a javascript: link", svg('<a href="&#106;avascript:alert(1)"><rect width="4" height="4"/></a>')],
  ["relative file reference", svg('<use href="/media/other.svg#a"/>')],
  ["feImage of a file", svg('<filter id="f"><feImage href="file:///etc/passwd"/></filter>')],
  [
    "XXE: a DOCTYPE with an external entity",
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg ${NS}><text>&xxe;</text></svg>`,
  ],
  [
    "billion laughs",
    `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><svg ${NS}><text>&lol3;</text></svg>`,
  ],
  ["a plain DOCTYPE", `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">${svg("")}`],
  ["an xml-stylesheet instruction", `<?xml version="1.0"?><?xml-stylesheet href="https://evil.test/x.css"?>${svg("")}`],
  [
    "foreignObject with HTML",
    svg(
      '<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject>',
    ),
  ],
  ["an iframe", svg('<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.test/"/>')],
  ["an embed", svg('<embed xmlns="http://www.w3.org/1999/xhtml" src="https://evil.test/x.swf"/>')],
  ["a handler (SVG Tiny 1.2)", svg('<handler xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="load">alert(1)</handler>')],
  ["@import in a style element", svg("<style>@import url(https://evil.test/x.css);</style>")],
  ["@import without url()", svg('<style>@import "https://evil.test/x.css";</style>')],
  ["url() in a CDATA style", svg("<style><![CDATA[rect{fill:url(https://evil.test/a)}]]></style>")],
  ["@import split by a comment", svg('<style>@imp<!-- -->ort "https://evil.test/x.css";</style>')],
  ["CSS escape hiding url(", svg("<style>rect{fill:\\75 rl(https://evil.test/a)}</style>")],
  ["image-set without url()", svg('<rect style="fill:image-set(&quot;https://evil.test/a.png&quot; 1x)"/>')],
  ["url() in a style attribute", svg('<rect width="4" height="4" style="fill:url(https://evil.test/a)"/>')],
  ["url() in a presentation attribute", svg('<rect width="4" height="4" fill="url(&quot;https://evil.test/a&quot;)"/>')],
  ["url() in a filter attribute", svg('<rect width="4" height="4" filter="url(https://evil.test/f.svg#f)"/>')],
  ["a CSS binding", svg('<rect style="behavior:url(#x);-moz-binding:url(#y)"/>')],
];

const UNREADABLE: [string, string][] = [
  ["unclosed element", `<svg ${NS}><rect></svg>`],
  ["an undefined entity", svg("<text>&foo;</text>")],
  ["an unbound prefix", svg('<a xlink:href="#x"/>')],
  ["a root that is not SVG", '<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>'],
  ["an svg root outside SVG's namespace", "<svg><rect/></svg>"],
  ["two roots", `${svg("")}${svg("")}`],
  ["not UTF-8", `<svg ${NS}><text>\u00e9</text></svg>`],
];

describe("SVG sanitizer", () => {
  it.each(HOSTILE)("refuses %s", (_name, text) => {
    const result = sanitizeSvg(bytes(text));
    expect(result).toMatchObject({ ok: false, problem: "hostile" });
  });

  it.each(UNREADABLE)("refuses a file it cannot read: %s", (name, text) => {
    const input = name === "not UTF-8" ? new Uint8Array(Buffer.from(text, "latin1")) : bytes(text);
    expect(sanitizeSvg(input)).toMatchObject({ ok: false, problem: "unreadable" });
  });

  it("drops comments, editor namespaces and unknown elements and attributes, keeping the picture", () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<!-- <script>alert(1)</script> -->
<svg ${NS} ${XLINK} xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" viewBox="0 0 10 10" data-x="1" xml:base="https://evil.test/">
  <sodipodi:namedview inkscape:zoom="1"><script>ignored()</script></sodipodi:namedview>
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><path id="p" d="M0 0h10"/></defs>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer"><rect width="10" height="10" fill="url(#g)" style="fill:url('#g')"/><use xlink:href="#p"/></g>
  <a href="#p"><circle r="1"/></a>
  <animate attributeName="opacity" values="0;1" dur="1s"/>
</svg>`;
    // The comment's script and the namedview's one are hostile only if anything keeps them: a script inside a
    // dropped subtree is still refused, so take it out for this case.
    const result = sanitizeSvg(bytes(text.replace("<script>ignored()</script>", "")));
    if (!result.ok) throw new Error(result.reason);
    expect(result.svg).toBe(
      `<svg ${NS} ${XLINK} viewBox="0 0 10 10">
  
  
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><path id="p" d="M0 0h10"/></defs>
  <g><rect width="10" height="10" fill="url(#g)" style="fill:url('#g')"/><use xlink:href="#p"/></g>
  
  <animate attributeName="opacity" values="0;1" dur="1s"/>
</svg>
`,
    );
    expect(result.dropped).toEqual(
      expect.arrayContaining(["@data-x", "@xml:base", "<sodipodi:namedview>", "<metadata>", "@inkscape:label", "<a>"]),
    );
    // Stable: what is published reads back as itself.
    expect(sanitizeSvg(bytes(result.svg))).toMatchObject({ ok: true, svg: result.svg, dropped: [] });
    // The script inside the dropped editor element is still a reason to refuse the upload.
    expect(sanitizeSvg(bytes(text))).toMatchObject({ ok: false, problem: "hostile" });
  });

  it("keeps the demo's icons, posters and waveforms as they are", () => {
    const pictures = [
      ...Array.from({ length: 24 }, (_, i) => iconSvg(i)),
      posterSvg(0, 640, 360),
      posterSvg(100, 1200, 360),
      waveformSvg([0.1, 0.5, 1, 0.25]),
    ];
    for (const picture of pictures) {
      const result = sanitizeSvg(bytes(picture));
      expect(result, picture.slice(0, 120)).toEqual({ ok: true, svg: picture, dropped: [] });
    }
  });

  it("escapes what it writes back", () => {
    const result = sanitizeSvg(bytes(svg('<text x="1" id="a&quot;b&lt;">1 &lt; 2 &amp;&amp; <![CDATA[<b>]]></text>')));
    expect(result).toEqual({
      ok: true,
      svg: `${svg('<text x="1" id="a&quot;b&lt;">1 &lt; 2 &amp;&amp; &lt;b&gt;</text>')}\n`,
      dropped: [],
    });
  });

  it("refuses too large a tree", () => {
    const deep = svg(`${"<g>".repeat(SVG_LIMITS.depth + 1)}${"</g>".repeat(SVG_LIMITS.depth + 1)}`);
    expect(sanitizeSvg(bytes(deep))).toMatchObject({ ok: false, problem: "limits" });
    const wide = svg("<rect/>".repeat(SVG_LIMITS.elements + 1));
    expect(sanitizeSvg(bytes(wide))).toMatchObject({ ok: false, problem: "limits" });
    expect(sanitizeSvg(bytes(svg("<rect/>".repeat(1000))))).toMatchObject({ ok: true });
  });
});

describe("SVG uploads and their published copies", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "svg-sanitize-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("refuses hostile SVGs at upload as unsafe, unreadable ones as damaged, and takes a clean one", async () => {
    for (const [name, text] of HOSTILE) expect(await checkMediaFile("icon", bytes(text)), name).toBe("fileUnsafe");
    expect(await checkMediaFile("icon", bytes(`<svg ${NS}><rect></svg>`))).toBe("fileDamaged");
    expect(await checkMediaFile("icon", bytes(svg(`${"<g>".repeat(250)}${"</g>".repeat(250)}`)))).toBe("fileSvgLimits");
    expect(await checkMediaFile("package", bytes(iconSvg(3)))).toBe("svg");
  });

  it("publishes the parser's serialization, never the uploaded bytes", async () => {
    const out = path.join(tmp, "out");
    fs.mkdirSync(out);
    const source = path.join(tmp, "input");
    fs.writeFileSync(source, `<!-- by an editor --><svg ${NS} width="64" height="32" data-editor="x"><rect width="64" height="32"/></svg>`);
    const made = await makePicture(source, "svg", {}, out, "/media/uploads/X1");
    expect(made).toEqual({
      preview_path: "/media/uploads/X1/picture.svg",
      poster_path: "/media/uploads/X1/picture.svg",
      width: 64,
      height: 32,
    });
    expect(fs.readFileSync(path.join(out, "picture.svg"), "utf8")).toBe(
      `<svg ${NS} width="64" height="32"><rect width="64" height="32"/></svg>\n`,
    );
    // A hostile file that reached the job some other way is not published.
    fs.writeFileSync(source, svg("<script>alert(1)</script>"));
    fs.rmSync(path.join(out, "picture.svg"));
    await expect(makePicture(source, "svg", {}, out, "/media/uploads/X1")).rejects.toThrow(/refused/);
    expect(fs.existsSync(path.join(out, "picture.svg"))).toBe(false);
  });

  it("serves an SVG from /media with a policy that runs no script and loads nothing", async () => {
    const storage = createLocalStorage(path.join(tmp, "data"));
    await storage.put("media/icons/a.svg", bytes(iconSvg(0)), { contentType: "image/svg+xml" });
    await storage.put("media/icons/a.png", bytes("not really a png"), { contentType: "image/png" });
    const request = { method: "GET", headers: new Headers() };
    const res = (await serveMedia(storage, "/icons/a.svg", request)) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(MEDIA_SVG_CSP);
    expect(MEDIA_SVG_CSP).toMatch(/default-src 'none'/);
    expect(MEDIA_SVG_CSP).toMatch(/\bsandbox\b/);
    expect(MEDIA_SVG_CSP).not.toMatch(/script-src/);
    expect((await serveMedia(storage, "/icons/a.png", request))?.headers.get("content-security-policy")).toBeNull();
  });
});
