// @vitest-environment jsdom
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32Combine, crc32Shift, gzipParts, type Hole, makeTemplate, plainText } from "../../app/utils/spliced-gzip";

/** The text with each hole's bytes replaced by its value. */
function filled(text: Buffer, holes: Hole[], values: Record<string, Buffer>): Buffer {
  const out: Buffer[] = [];
  let from = 0;
  for (const hole of holes) {
    out.push(text.subarray(from, hole.at), values[hole.name]);
    from = hole.at + hole.length;
  }
  out.push(text.subarray(from));
  return Buffer.concat(out);
}

/** Holes where `needle` occurs. */
function holesOf(text: Buffer, needles: Record<string, string>): Hole[] {
  const holes: Hole[] = [];
  for (const [name, needle] of Object.entries(needles)) {
    const n = Buffer.from(needle);
    for (let at = text.indexOf(n); at !== -1; at = text.indexOf(n, at + n.length)) holes.push({ at, length: n.length, name });
  }
  return holes.sort((a, b) => a.at - b.at);
}

describe("CRC-32 of joined pieces", () => {
  it("equals zlib's CRC-32 of the whole, for any split", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        const whole = zlib.crc32(Buffer.concat([a, b]));
        expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), crc32Shift(b.length))).toBe(whole);
      }),
      { numRuns: 200 },
    );
  });

  it("holds for a piece of a few hundred kilobytes", () => {
    const a = randomBytes(1234);
    const b = randomBytes(300_001);
    expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), crc32Shift(b.length))).toBe(zlib.crc32(Buffer.concat([a, b])));
  });
});

describe("spliced gzip", () => {
  const page = Buffer.from(
    `<!DOCTYPE html><html lang="ko"><head><script nonce="NONCE0000000000000000000">1</script></head><body>` +
      `<p>안녕하세요, TOKEN-NICK 님</p>${'<div class="card"><a href="/contents/video?code=VI1">영상 카드</a></div>'.repeat(800)}` +
      `<script nonce="NONCE0000000000000000000">window.x={"nick":"TOKEN-NICK"}</script></body></html>`,
  );
  const holes = holesOf(page, { nonce: "NONCE0000000000000000000", nick: "TOKEN-NICK" });

  it("decodes to the page with each response's values, by gunzip and by its own trailer check", () => {
    expect(holes).toHaveLength(4);
    const template = makeTemplate(page, holes);
    for (const values of [
      { nonce: Buffer.from("abcdefghijklmnopqrstuvwx"), nick: Buffer.from("김하나") },
      { nonce: Buffer.from("zz"), nick: Buffer.from("") },
      { nonce: Buffer.from("q".repeat(70_000)), nick: Buffer.from("Bob Lee") },
    ]) {
      const gz = Buffer.concat(gzipParts(template, values));
      // gunzipSync checks the CRC-32 and the length in the trailer.
      expect(zlib.gunzipSync(gz).equals(filled(page, holes, values))).toBe(true);
      expect(plainText(template, values).equals(filled(page, holes, values))).toBe(true);
    }
  });

  it("is sent compressed: a small fraction of the page, and the template's bytes are not copied per response", () => {
    const template = makeTemplate(page, holes);
    const parts = gzipParts(template, { nonce: Buffer.from("n".repeat(24)), nick: Buffer.from("Bob") });
    const size = parts.reduce((n, p) => n + p.length, 0);
    expect(size).toBeLessThan(page.length / 20);
    const { packed } = template;
    const views = parts.filter(
      (p) =>
        p.buffer === packed.buffer && p.byteOffset >= packed.byteOffset && p.byteOffset + p.length <= packed.byteOffset + packed.length,
    );
    expect(views.reduce((n, p) => n + p.length, 0)).toBe(packed.length);
  });

  it("handles holes at the very start and end, adjacent holes, and no hole", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constant("[N]"), fc.constant("[K]"), fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 10 })),
          {
            maxLength: 30,
          },
        ),
        fc.string({ maxLength: 12 }),
        fc.string({ unit: "grapheme", maxLength: 12 }),
        (chunks, nonce, nick) => {
          const text = Buffer.from(chunks.join(""));
          const h = holesOf(text, { nonce: "[N]", nick: "[K]" });
          const values = { nonce: Buffer.from(nonce), nick: Buffer.from(nick) };
          const gz = Buffer.concat(gzipParts(makeTemplate(text, h), values));
          expect(zlib.gunzipSync(gz).equals(filled(text, h, values))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses to answer without a value for a hole", () => {
    const template = makeTemplate(page, holes);
    expect(() => gzipParts(template, { nonce: Buffer.from("x") })).toThrow(/nick/);
  });
});
