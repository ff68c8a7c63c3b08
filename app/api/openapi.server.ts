import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import type { ApiRoute, SpecHeader } from "./define";
import { envelope, errorEnvelope } from "./wire";
import { z } from "./zod";

/** What each spec header (section 7) carries, as the reference words it. */
const HEADERS: Record<SpecHeader | "language", z.ZodTypeAny> = {
  language: z.enum(["ko", "en"]).optional().openapi({ description: "The answer's language (messages, names, currency)." }),
  authorizationToken: z
    .string()
    .optional()
    .openapi({ description: "A signed-in member (the gt cookie's value); the cookies gt and gsi also do." }),
  ngt: z.string().optional().openapi({ description: "A visitor's anonymous cart token." }),
  license_id: z.string().optional().openapi({ description: "The editor's product key." }),
  hw_info: z.string().optional().openapi({ description: "The PC the editor's licence is registered on; verifies license_id." }),
  license_email: z.string().optional().openapi({ description: "A business key's licensing e-mail (a key-only buyer, with license_id)." }),
  os: z.string().optional().openapi({ description: "The editor's operating system (downloads need Windows)." }),
};

/** "contents/:id" → "/contents/{id}", and its path parameters. */
const openApiPath = (path: string) => `/${path.replace(/:(\w+)/g, "{$1}")}`;
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/**
 * The OpenAPI 3.1 document of the API (served at /api/v1/openapi.json), generated from the route table: each route's
 * headers, query, body and answer are the zod schemas the router checks input with and shapes answers with.
 */
export function openApiDocument(routes: readonly ApiRoute[], origin: string) {
  const registry = new OpenAPIRegistry();
  const error = registry.register("Error", errorEnvelope);
  for (const r of routes) {
    const params = pathParams(r.path);
    const headers = z.object(Object.fromEntries(["language", ...(r.headers ?? [])].map((h) => [h, HEADERS[h as SpecHeader]])));
    const ok =
      r.answer instanceof z.ZodType
        ? { "application/json": { schema: envelope(r.answer) } }
        : {
            [r.answer.binary]: {
              schema: r.answer.binary.endsWith("json")
                ? z.object({}).passthrough().openapi({ description: "Not in the envelope." })
                : z.string().openapi({ format: "binary" }),
            },
          };
    registry.registerPath({
      method: r.method.toLowerCase() as "get",
      path: openApiPath(r.path),
      tags: [r.tag],
      summary: r.summary,
      description: r.description,
      request: {
        headers,
        params: params.length ? z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) : undefined,
        query: r.query as z.AnyZodObject | undefined,
        body: r.body
          ? { required: true, content: { "application/json": { schema: r.body } } }
          : r.form
            ? {
                required: true,
                content: { "multipart/form-data": { schema: r.form }, "application/x-www-form-urlencoded": { schema: r.form } },
              }
            : undefined,
      },
      responses: {
        200: { description: "SUCCESS", content: ok },
        ...Object.fromEntries(
          Object.entries(r.otherAnswers ?? {}).map(([status, a]) => [
            status,
            { description: a.description, content: { "application/json": { schema: envelope(a.data) } } },
          ]),
        ),
        default: {
          description: "A refusal or an error: result.code and result.message, data.state ERROR",
          content: { "application/json": { schema: error } },
        },
      },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Video asset market API",
      version: "1",
      description:
        "The store's HTTP API (spec section 7). Every answer is the envelope { result: { code, message }, data }; data.state is SUCCESS or ERROR. Names are the spec's, in snake_case (docs/api.md).",
    },
    servers: [{ url: `${origin}/api/v1` }],
  });
}
