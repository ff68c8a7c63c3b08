import { PassThrough } from "node:stream";
import { type AppLoadContext, createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { fixedT, serverBundles } from "./i18n/i18n.server";
import { I18nProvider } from "./i18n/react";
import { NonceProvider } from "./utils/nonce";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  const waitForAll = isbot(request.headers.get("user-agent")) || remixContext.isSpaMode;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let body: PassThrough | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nProvider locale={loadContext.locale} bundles={serverBundles} translator={fixedT}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nProvider>
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // A visitor who left mid-page (the response stream was cancelled, so its destination closed) is not a
          // server error.
          if (shellRendered && !body?.destroyed && !request.signal.aborted)
            console.error(JSON.stringify({ level: "error", requestId: loadContext.requestId, error: String(error) }));
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1000);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
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
  console.error(
    JSON.stringify({
      level: "error",
      path: new URL(request.url).pathname,
      error: error instanceof Error ? error.stack : String(error),
    }),
  );
}
