import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

/**
 * zod with `.openapi(...)` metadata (names, descriptions, deprecations for the API reference): every API module takes
 * `z` from here, so the extension is in place before any of their schemas is built.
 */
extendZodWithOpenApi(z);

export { z };
