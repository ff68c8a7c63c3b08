import { PassThrough } from "node:stream";
import { type AppLoadContext, createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { requestI18n, routeNamespaces } from "./i18n/i18n.server";
import { NonceProvider } from "./utils/nonce";
import { reportUnavailable, UNAVAILABLE_RETRY_AFTER_S, unavailableCode } from "./utils/unavailable.server";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * Requests whose loader or action found the database unavailable (busy, full, unreachable) or the file storage full
 * under an upload (app/utils/unavailable.server.ts). handleError sees the error before Remix hides it from the page;
 * the document is then answered 503 with Retry-After instead of 500,
 * and the error boundary says "Please try again in a few minutes" in the visitor's language.
 */
const unavailable = new WeakSet<Request>();

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  if (unavailable.has(request)) {
    responseStatusCode = 503;
    responseHeaders.set("Retry-After", String(UNAVAILABLE_RETRY_AFTER_S));
  }
  const waitForAll = isbot(request.headers.get("user-agent")) || remixContext.isSpaMode;

  return streamDocument(
    <NonceProvider value={nonce}>
      <I18nextProvider i18n={requestI18n(loadContext.locale, routeNamespaces(remixContext))}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </I18nextProvider>
    </NonceProvider>,
    { status: responseStatusCode, headers: responseHeaders, waitForAll, nonce, signal: request.signal, requestId: loadContext.requestId },
  );
}

/**
 * Renders a document into a streamed Response. The abort timer stops what still streams once the shell is out
 * (deferred data that never came): it starts when the shell is ready, so a render that waited for the CPU on a busy
 * machine is not aborted before its first byte and answered 500 with nobody told (fuzz under load, issue 25). An
 * abort by that timer is not a server error either: the page's pending parts are left to the browser.
 */
export function streamDocument(
  element: JSX.Element,
  options: { status: number; headers: Headers; waitForAll: boolean; nonce?: string; signal: AbortSignal; requestId?: string },
): Promise<Response> {
  let status = options.status;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let abortedByTimer = false;
    let body: PassThrough | undefined;
    const startAbortTimer = () => {
      setTimeout(() => {
        abortedByTimer = true;
        abort();
      }, ABORT_DELAY + 1000).unref();
    };
    const ready = () => {
      shellRendered = true;
      // (react-dom is patched: patches/react-dom+18.3.1.patch, see docs/decisions.md.)
      body = new PassThrough();
      options.headers.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: options.headers, status }));
      pipe(body);
      if (!options.waitForAll) startAbortTimer();
    };
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce: options.nonce,
      ...(options.waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        if (abortedByTimer) return;
        status = 500;
        // A visitor who left mid-page (the response stream was cancelled, so its destination closed) is not a
        // server error.
        if (shellRendered && !body?.destroyed && !options.signal.aborted)
          console.error(JSON.stringify({ level: "error", requestId: options.requestId, error: String(error) }));
      },
    });
    // Everything a crawler gets is waited for (onAllReady): its timer runs from the start.
    if (options.waitForAll) startAbortTimer();
  });
}

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  // A request the store refused (an unknown method, a route without an action): the client's error, logged as such.
  if (isRouteErrorResponse(error) && error.status < 500) {
    console.warn(
      JSON.stringify({
        level: "warn",
        msg: "client error",
        status: error.status,
        method: request.method,
        path: new URL(request.url).pathname,
      }),
    );
    return;
  }
  if (unavailableCode(error)) {
    unavailable.add(request);
    reportUnavailable(error, { requestId: context.requestId, path: new URL(request.url).pathname });
    return;
  }
  console.error(
    JSON.stringify({
      level: "error",
      path: new URL(request.url).pathname,
      error: error instanceof Error ? error.stack : String(error),
    }),
  );
}
