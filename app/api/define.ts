import type { AppLoadContext } from "@remix-run/node";
import type { Locale } from "../i18n/config";
import { z } from "./zod";

export interface ApiCall {
  request: Request;
  context: AppLoadContext;
  params: Record<string, string>;
  query: URLSearchParams;
  language: Locale;
}

/**
 * The spec's request headers (section 7) a route reads: `authorizationToken` (a member, from the gt cookie), `ngt` (an
 * anonymous cart), `license_id` + `hw_info` (the editor's licence: its product key and the PC it is registered on),
 * `license_email` (a key-only buyer's licensing e-mail), `os` (the editor's system). `language` applies to every route.
 */
export type SpecHeader = "authorizationToken" | "ngt" | "license_id" | "hw_info" | "license_email" | "os";

/** What a handler answers besides plain data: another status or message, or headers (cookies). */
export class Reply {
  constructor(
    readonly data: unknown,
    readonly init: { status?: number; message?: string; headers?: Headers } = {},
  ) {}
}

type Schema = z.ZodType<any, z.ZodTypeDef, any>;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface RouteDef<Q extends Schema | undefined, B extends Schema | undefined> {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Below /api/v1, e.g. "contents/:id". */
  path: string;
  summary: string;
  tag: string;
  headers?: SpecHeader[];
  /** The query string's fields (also the reference's query parameters). */
  query?: Q;
  /** The JSON body; "multipart" for a form upload (its fields documented in `form`). */
  body?: B;
  form?: Schema;
  /** `data` of a 200 answer, in the wire's names; `{ binary }` for an answer that is not JSON. */
  answer: Schema | { binary: string };
  /** Answers with another status whose `data` is not the error envelope's (e.g. the cart's 409). */
  otherAnswers?: Record<number, { description: string; data: Schema }>;
  description?: string;
  handler: (call: ApiCall, input: { query: () => Out<Q>; body: () => Promise<Out<B>> }) => Promise<Response | Reply | object | undefined>;
}

export type ApiRoute = RouteDef<Schema | undefined, Schema | undefined>;

/** One route of the table: its handler, and the schemas that both check its input and shape its answer. */
export function route<Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(def: RouteDef<Q, B>): ApiRoute {
  return def as unknown as ApiRoute;
}

/** A JSON object answer's data: its fields in the wire's names. */
export const answer = <T extends z.ZodRawShape>(shape: T) => z.object(shape);
