/** The spec's answer envelope: `{ result: { code, message }, data }`. */
export interface Envelope<T> {
  result: { code: number; message: string };
  data: T;
}

export function ok<T>(data: T, init?: ResponseInit): Response {
  return Response.json({ result: { code: 200, message: "SUCCESS" }, data } satisfies Envelope<T>, init);
}

export function fail(status: number, message: string, code: number | string = status): Response {
  return Response.json(
    {
      result: { code: typeof code === "number" ? code : status, message },
      data: { state: "ERROR", error: typeof code === "string" ? code : undefined },
    },
    { status },
  );
}
