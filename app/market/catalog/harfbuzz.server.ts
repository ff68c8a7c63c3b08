import fs from "node:fs/promises";
import { createRequire } from "node:module";

/**
 * harfbuzz's subsetter (hb-subset, compiled to WebAssembly by harfbuzzjs), called the way subset-font calls it
 * for a TrueType/OpenType font: every layout feature kept, the text's code points as the unicode set.
 *
 * subset-font itself loads fontverter, and with it Google's WOFF2 encoder and decoder as WebAssembly (some 12 MB
 * resident from the moment they load), which the previews no longer use: woff2.server.ts writes the WOFF2. The
 * WebAssembly module is subset-font's own harfbuzzjs, found through subset-font (the project's dependency);
 * fonts that are not sfnt (WOFF, WOFF2) still go through subset-font, which converts them first.
 */
interface HarfBuzz {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_set_clear(set: number): void;
  hb_set_invert(set: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_WRITABLE = 2;
const HB_SUBSET_SETS_LAYOUT_FEATURE_TAG = 6;

let loading: Promise<HarfBuzz> | undefined;
/** The module, instantiated at the first subset (not at start). */
function harfbuzz(): Promise<HarfBuzz> {
  loading ??= (async () => {
    const fromSubsetFont = createRequire(createRequire(import.meta.url).resolve("subset-font"));
    const bytes = await fs.readFile(fromSubsetFont.resolve("harfbuzzjs/dist/harfbuzz-subset.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes);
    const hb = instance.exports as unknown as HarfBuzz;
    hb._initialize();
    return hb;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Whether the bytes are a TrueType/OpenType font (rather than WOFF, WOFF2 or a collection). */
export function isSfnt(font: Uint8Array): boolean {
  const tag = Buffer.from(font.buffer, font.byteOffset, Math.min(4, font.byteLength)).toString("latin1");
  return tag === "\x00\x01\x00\x00" || tag === "OTTO" || tag === "true";
}

/** A TrueType/OpenType font holding only the glyphs `text` needs (and what its layout features reach). */
export async function subsetSfnt(font: Uint8Array, text: string): Promise<Buffer> {
  if (!isSfnt(font)) throw new Error("subsetSfnt: not a TrueType/OpenType font");
  const hb = await harfbuzz();
  const input = hb.hb_subset_input_create_or_fail();
  if (input === 0) throw new Error("hb_subset_input_create_or_fail (harfbuzz) failed");
  const fontBuffer = hb.malloc(font.byteLength);
  // The memory may grow at any call: a fresh view at each use.
  new Uint8Array(hb.memory.buffer).set(font, fontBuffer);
  const blob = hb.hb_blob_create(fontBuffer, font.byteLength, HB_MEMORY_MODE_WRITABLE, 0, 0);
  const face = hb.hb_face_create(blob, 0);
  hb.hb_blob_destroy(blob);
  try {
    const features = hb.hb_subset_input_set(input, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
    hb.hb_set_clear(features);
    hb.hb_set_invert(features);
    const unicodes = hb.hb_subset_input_unicode_set(input);
    for (const c of text) hb.hb_set_add(unicodes, c.codePointAt(0) as number);
    const subset = hb.hb_subset_or_fail(face, input);
    if (subset === 0) throw new Error("hb_subset_or_fail (harfbuzz) returned zero: is the font corrupted?");
    const result = hb.hb_face_reference_blob(subset);
    try {
      const length = hb.hb_blob_get_length(result);
      if (length === 0) throw new Error("harfbuzz made an empty subset: is the font corrupted?");
      const data = hb.hb_blob_get_data(result, 0);
      return Buffer.from(new Uint8Array(hb.memory.buffer, data, length)); // a copy, out of the module's memory
    } finally {
      hb.hb_blob_destroy(result);
      hb.hb_face_destroy(subset);
    }
  } finally {
    hb.hb_subset_input_destroy(input);
    hb.hb_face_destroy(face);
    hb.free(fontBuffer);
  }
}
