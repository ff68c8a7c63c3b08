import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

/**
 * Checks API answers against the store's own OpenAPI document (/api/v1/openapi.json): the answer's schema for its
 * path, method and status (or the document's `default`), with ajv's JSON Schema 2020-12 (what OpenAPI 3.1 uses).
 * Every API call the integration suite makes through createTestApp goes through `check`, so every API test is also a
 * conformance test: an answer the reference does not describe fails the test that received it.
 */
export class Conformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; regex: RegExp; literal: number }[];

  constructor(readonly doc: Doc) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, "openapi.json");
    this.templates = Object.keys(doc.paths)
      .map((template) => ({
        template,
        regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`),
        literal: template.split("/").filter((s) => !s.startsWith("{")).length,
      }))
      .sort((a, b) => b.literal - a.literal);
  }

  /** The document's path template and operation for a call, as the router would match it (literal segments first). */
  operation(method: string, apiPath: string) {
    const m = method.toLowerCase();
    const found = this.templates.find((t) => t.regex.test(apiPath) && this.doc.paths[t.template][m]);
    return found ? { template: found.template, op: this.doc.paths[found.template][m] } : null;
  }

  /** Problems of one answer (empty when it conforms). `apiPath` is below /api/v1, e.g. "/contents/VI0000001". */
  check(method: string, apiPath: string, status: number, contentType: string, body: unknown): string[] {
    const found = this.operation(method, apiPath);
    // A path or method the document does not list must be the router's 404/405 refusal.
    const pointer = found
      ? (() => {
          const key = String(status) in found.op.responses ? String(status) : "default";
          if (!(key in found.op.responses)) return null;
          const content = found.op.responses[key].content ?? {};
          const type = Object.keys(content).find((t) => contentType.startsWith(t));
          if (!type) return `no ${contentType} answer documented for ${status}`;
          return `openapi.json#/paths/${esc(found.template)}/${method.toLowerCase()}/responses/${key}/content/${esc(type)}/schema`;
        })()
      : "openapi.json#/components/schemas/Error";
    if (pointer === null) return [`${method} ${apiPath}: status ${status} is not documented`];
    if (!pointer.startsWith("openapi.json#")) return [`${method} ${apiPath}: ${pointer}`];
    if (!found && status !== 404 && status !== 405 && status !== 503)
      return [`${method} ${apiPath}: answered ${status} but the document does not list it`];
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(pointer);
      if (!validate) return [`${method} ${apiPath}: no schema at ${pointer}`];
      this.compiled.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${method} ${apiPath} ${status}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }
}

const esc = (s: string) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"));
