import { Transform, type TransformCallback } from "node:stream";

/**
 * React 18's streaming renderer (react-dom/server, Node build) pads its output with NUL bytes when a multi-byte
 * character does not fit at the end of its 2 KB buffer: it flushes the whole buffer, unwritten zeros included
 * (fixed in React 19, which flushes only what was written). A Korean page then shows "기\0\0한" where "기한" was
 * written. The renderer's buffers are zeroed, so the padding is exactly the NUL bytes; an HTML document has no
 * other NUL (the HTML parser drops or replaces them), so this transform removes every one. A chunk without NUL
 * (the usual case, found by one memchr) passes through untouched.
 */
export function stripNulBytes(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      if (chunk.indexOf(0) === -1) return done(null, chunk);
      const out = Buffer.allocUnsafe(chunk.length);
      let n = 0;
      let from = 0;
      for (let at = chunk.indexOf(0); at !== -1; at = chunk.indexOf(0, from)) {
        n += chunk.copy(out, n, from, at);
        from = at + 1;
      }
      n += chunk.copy(out, n, from);
      done(null, out.subarray(0, n));
    },
  });
}
