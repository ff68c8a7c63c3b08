import { type SaxesAttributeNS, SaxesParser, type SaxesTagNS } from "saxes";

/**
 * An uploaded SVG read by a real XML parser (saxes, strict, with namespaces) and written out again from an
 * allow-list: the SVG elements and attributes a picture needs, nothing else. It is served from the store's own
 * origin (/media), so nothing in it may run script or reach outside the picture.
 *
 * - A file that is not well-formed XML, not UTF-8, or whose root is not SVG's `<svg>` is refused (`unreadable`).
 * - Refused as `hostile` (the upload is refused, fileUnsafe): a DOCTYPE (and so any entity), a processing instruction
 *   such as `<?xml-stylesheet?>`; a script, foreign object, iframe, embed, object, handler or listener in any
 *   namespace (so `<s:script xmlns:s="http://www.w3.org/2000/svg">` is a script) and any XHTML element; an `on*`
 *   attribute; an `href`/`xlink:href` that is not a `#fragment` of the same picture; a `javascript:` value anywhere;
 *   a `url(...)` that is not `url(#fragment)`; CSS with `@import`, `@font-face`, `image-set(`, escapes or
 *   `expression(`; an `animate`/`set`/`animateTransform`/`animateMotion` aimed at `href`, `style`, an event or any
 *   attribute outside the allow-list.
 * - Dropped quietly (what drawing programs add): comments, elements of other namespaces (Inkscape's, Sodipodi's,
 *   RDF metadata) with their content, SVG elements outside the allow-list with their content, attributes outside
 *   the allow-list (`inkscape:label`, `data-*`, `xml:base`).
 * - Too large a tree (`SVG_LIMITS`) is refused as `limits`.
 *
 * What is published is always the serialization of the kept tree, never the uploaded bytes.
 */
export type SvgSanitized =
  | { ok: true; svg: string; dropped: string[] }
  | { ok: false; problem: "unreadable" | "hostile" | "limits"; reason: string };

export const SVG_LIMITS = { elements: 100_000, depth: 200 };

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
const XHTML_NS = "http://www.w3.org/1999/xhtml";

const FILTER_PRIMITIVES = [
  "feBlend",
  "feColorMatrix",
  "feComponentTransfer",
  "feComposite",
  "feConvolveMatrix",
  "feDiffuseLighting",
  "feDisplacementMap",
  "feDistantLight",
  "feDropShadow",
  "feFlood",
  "feFuncA",
  "feFuncB",
  "feFuncG",
  "feFuncR",
  "feGaussianBlur",
  "feMerge",
  "feMergeNode",
  "feMorphology",
  "feOffset",
  "fePointLight",
  "feSpecularLighting",
  "feSpotLight",
  "feTile",
  "feTurbulence",
];

const ANIMATIONS = new Set(["animate", "set", "animateTransform", "animateMotion", "animateColor"]);

/** SVG elements kept (in SVG's namespace). Not here: a, image, feImage, switch, cursor, font elements, view. */
const ELEMENTS = new Set([
  "svg",
  "g",
  "defs",
  "desc",
  "title",
  "symbol",
  "use",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "textPath",
  "linearGradient",
  "radialGradient",
  "stop",
  "pattern",
  "clipPath",
  "mask",
  "marker",
  "filter",
  "style",
  "mpath",
  ...FILTER_PRIMITIVES,
  ...ANIMATIONS,
]);

/** Elements that run script, embed documents or listen for events: refused in whatever namespace they come. */
const HOSTILE_ELEMENTS = new Set([
  "script",
  "foreignobject",
  "iframe",
  "embed",
  "object",
  "handler",
  "listener",
  "frame",
  "applet",
  "base",
  "link",
  "meta",
]);

/** Presentation and geometry attributes (no namespace) that a picture uses and an animation may change. */
const PAINT_ATTRIBUTES = [
  "transform",
  "viewBox",
  "preserveAspectRatio",
  "width",
  "height",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "fx",
  "fy",
  "fr",
  "d",
  "points",
  "pathLength",
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-opacity",
  "opacity",
  "color",
  "display",
  "visibility",
  "overflow",
  "clip-path",
  "clip-rule",
  "mask",
  "filter",
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientTransform",
  "patternTransform",
  "marker-start",
  "marker-mid",
  "marker-end",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "font-variant",
  "font-stretch",
  "text-anchor",
  "dominant-baseline",
  "alignment-baseline",
  "baseline-shift",
  "letter-spacing",
  "word-spacing",
  "text-decoration",
  "writing-mode",
  "dx",
  "dy",
  "rotate",
  "textLength",
  "startOffset",
  "paint-order",
  "vector-effect",
  "shape-rendering",
  "text-rendering",
  "image-rendering",
  "color-interpolation",
  "color-interpolation-filters",
  "flood-color",
  "flood-opacity",
  "lighting-color",
  "mix-blend-mode",
  "isolation",
  "stdDeviation",
  "baseFrequency",
  "radius",
  "scale",
  "k1",
  "k2",
  "k3",
  "k4",
  "slope",
  "intercept",
  "amplitude",
  "exponent",
  "azimuth",
  "elevation",
  "z",
  "pointsAtX",
  "pointsAtY",
  "pointsAtZ",
  "surfaceScale",
  "diffuseConstant",
  "specularConstant",
  "specularExponent",
  "limitingConeAngle",
];

/** Every attribute kept without a namespace (`href` only as a #fragment, `style` only with safe CSS). */
const ATTRIBUTES = new Set([
  ...PAINT_ATTRIBUTES,
  "id",
  "class",
  "style",
  "href",
  "version",
  "role",
  "aria-label",
  "aria-hidden",
  "aria-labelledby",
  "aria-describedby",
  "focusable",
  "clipPathUnits",
  "maskUnits",
  "maskContentUnits",
  "filterUnits",
  "primitiveUnits",
  "gradientUnits",
  "spreadMethod",
  "patternUnits",
  "patternContentUnits",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  "lengthAdjust",
  "method",
  "spacing",
  "side",
  "in",
  "in2",
  "result",
  "mode",
  "type",
  "values",
  "tableValues",
  "operator",
  "xChannelSelector",
  "yChannelSelector",
  "numOctaves",
  "seed",
  "stitchTiles",
  "order",
  "kernelMatrix",
  "divisor",
  "bias",
  "targetX",
  "targetY",
  "edgeMode",
  "kernelUnitLength",
  "preserveAlpha",
  "media",
  // animation timing and values
  "attributeName",
  "attributeType",
  "begin",
  "dur",
  "end",
  "min",
  "max",
  "restart",
  "repeatCount",
  "repeatDur",
  "calcMode",
  "keyTimes",
  "keySplines",
  "keyPoints",
  "from",
  "to",
  "by",
  "additive",
  "accumulate",
  "path",
]);

/** What an animation may change: presentation and geometry only (never href, style, an event, an id). */
const ANIMATABLE = new Set(PAINT_ATTRIBUTES);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters and spaces are what browsers skip in addresses
const squeeze = (value: string) => value.replace(/[\u0000-\u0020\u007f-\u00a0]+/g, "").toLowerCase();
const isFragment = (value: string) => /^#[^\s]*$/.test(value.trim());

/** Why a value is hostile wherever it appears: a script address, or a url() that leaves the picture. */
function hostileValue(value: string): string | null {
  const bare = squeeze(value);
  if (/(?:java|vb)script:/.test(bare)) return "a javascript: value";
  if (bare.includes("url(") && !urlsAreFragments(value)) return "a url() outside the picture";
  return null;
}

function urlsAreFragments(text: string): boolean {
  const re = /url\(\s*(['"]?)\s*([^)'"]*)/gi;
  let found = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    found += 1;
    if (!m[2].trim().startsWith("#")) return false;
  }
  // A url( the pattern did not read (spread by spaces or control characters) is not known to be a fragment.
  return found === squeeze(text).split("url(").length - 1;
}

/** Why CSS text (a style attribute or a <style> element) is hostile, or null. */
function hostileCss(css: string): string | null {
  const bare = squeeze(css);
  if (css.includes("\\")) return "a CSS escape";
  if (/@import|@font-face|@namespace/.test(bare)) return "a CSS rule that loads a file";
  if (/(?:image-set|image|cross-fade|element|expression)\(/.test(bare)) return "a CSS function that loads a file or runs script";
  if (/-moz-binding|behavior:/.test(bare)) return "a CSS binding";
  return hostileValue(css);
}

interface Frame {
  /** Written out (false inside a dropped element). */
  kept: boolean;
  local: string;
  /** Index of the start tag in `out`, to close it as `/>` when nothing was written inside. */
  start: number;
  empty: boolean;
  /** A <style> element's text so far: checked whole at its end (a comment or CDATA section may split `@import`). */
  css?: string;
}

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) =>
  escapeText(s).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");

class Refusal extends Error {
  constructor(
    readonly problem: "unreadable" | "hostile" | "limits",
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Reads an SVG's bytes and answers the kept picture as text, or why it was refused. */
export function sanitizeSvg(bytes: Uint8Array): SvgSanitized {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, problem: "unreadable", reason: "not UTF-8" };
  }
  const dropped = new Set<string>();
  const out: string[] = [];
  const stack: Frame[] = [];
  let elements = 0;
  let rootSeen = false;
  let usesXlink = false;
  let rootIndex = -1;

  const parser = new SaxesParser({ xmlns: true, position: false });
  const hostile = (reason: string): never => {
    throw new Refusal("hostile", reason);
  };
  parser.on("doctype", () => hostile("a DOCTYPE (entities)"));
  parser.on("processinginstruction", (pi) => hostile(`a processing instruction <?${pi.target}?>`));
  parser.on("opentag", (tag: SaxesTagNS) => {
    elements += 1;
    if (elements > SVG_LIMITS.elements) throw new Refusal("limits", `more than ${SVG_LIMITS.elements} elements`);
    if (stack.length >= SVG_LIMITS.depth) throw new Refusal("limits", `elements nested more than ${SVG_LIMITS.depth} deep`);
    const parent = stack.at(-1);
    const local = tag.local;
    if (!rootSeen) {
      rootSeen = true;
      if (tag.uri !== SVG_NS || local !== "svg") throw new Refusal("unreadable", "the root element is not SVG's <svg>");
    }
    // Hostile wherever it is, even inside an element that is dropped anyway.
    if (HOSTILE_ELEMENTS.has(local.toLowerCase())) hostile(`a <${tag.name}> element`);
    if (tag.uri === XHTML_NS) hostile(`an XHTML element <${tag.name}>`);
    const attributes = Object.values(tag.attributes as Record<string, SaxesAttributeNS>);
    for (const a of attributes) {
      if (a.uri === XMLNS_NS || a.name === "xmlns" || a.prefix === "xmlns") continue;
      if (/^on/i.test(a.local)) hostile(`an event attribute ${a.name}`);
      if (a.local === "href" && !isFragment(a.value)) hostile(`a link to ${JSON.stringify(a.value.slice(0, 80))}`);
      if (a.local === "style") {
        const css = hostileCss(a.value);
        if (css) hostile(css);
      }
      const value = hostileValue(a.value);
      if (value) hostile(value);
    }
    if (ANIMATIONS.has(local)) {
      const target = attributes.find((a) => a.local === "attributeName" && !a.prefix)?.value.trim() ?? "";
      const name = target.includes(":") ? target.slice(target.indexOf(":") + 1) : target;
      if (local !== "animateMotion" && local !== "animateTransform" && !ANIMATABLE.has(name))
        hostile(`an <${local}> of ${JSON.stringify(target.slice(0, 40))}`);
      if (local === "animateTransform" && name !== "transform" && name !== "gradientTransform" && name !== "patternTransform")
        hostile(`an <animateTransform> of ${JSON.stringify(target.slice(0, 40))}`);
    }

    const keep = (parent ? parent.kept : true) && tag.uri === SVG_NS && ELEMENTS.has(local);
    if (!keep) {
      if (!parent || parent.kept) dropped.add(tag.uri === SVG_NS ? `<${local}>` : `<${tag.name}>`);
      stack.push({ kept: false, local, start: -1, empty: true, ...(local === "style" ? { css: "" } : {}) });
      return;
    }
    if (parent) parent.empty = false;
    let open = `<${local}`;
    if (!parent) {
      rootIndex = out.length;
      open += ` xmlns="${SVG_NS}"`;
    }
    for (const a of attributes) {
      if (a.uri === XMLNS_NS || a.name === "xmlns" || a.prefix === "xmlns") continue;
      if (a.uri === "" && ATTRIBUTES.has(a.local)) open += ` ${a.local}="${escapeAttr(a.value)}"`;
      else if (a.uri === XLINK_NS && a.local === "href") {
        usesXlink = true;
        open += ` xlink:href="${escapeAttr(a.value)}"`;
      } else if (a.uri === XML_NS && (a.local === "space" || a.local === "lang")) open += ` xml:${a.local}="${escapeAttr(a.value)}"`;
      else dropped.add(`@${a.name}`);
    }
    stack.push({ kept: true, local, start: out.length, empty: true, ...(local === "style" ? { css: "" } : {}) });
    out.push(`${open}>`);
  });
  parser.on("closetag", () => {
    const frame = stack.pop();
    if (frame?.css !== undefined) {
      const css = hostileCss(frame.css);
      if (css) hostile(css);
    }
    if (!frame?.kept) return;
    if (frame.empty) out[frame.start] = `${out[frame.start].slice(0, -1)}/>`;
    else out.push(`</${frame.local}>`);
  });
  const onText = (chunk: string) => {
    const frame = stack.at(-1);
    if (frame?.css !== undefined) frame.css += chunk;
    if (!frame?.kept) return;
    frame.empty = false;
    out.push(escapeText(chunk));
  };
  parser.on("text", onText);
  parser.on("cdata", onText);

  try {
    parser.write(text.replace(/^\uFEFF/, "")).close();
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, problem: error.problem, reason: error.reason };
    return { ok: false, problem: "unreadable", reason: `not well-formed XML: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!rootSeen || rootIndex < 0) return { ok: false, problem: "unreadable", reason: "no <svg> element" };
  if (usesXlink) out[rootIndex] = out[rootIndex].replace(`xmlns="${SVG_NS}"`, `xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"`);
  return { ok: true, svg: `${out.join("")}\n`, dropped: [...dropped] };
}
