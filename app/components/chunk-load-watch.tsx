import { matchRoutes, useNavigation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "../i18n/react";
import { CHUNK_LOAD_TIMEOUT_MS } from "../market/rules";

type RemixWindow = Window & {
  __remixRouter?: { routes: Parameters<typeof matchRoutes>[0] };
  __remixRouteModules?: Record<string, unknown>;
  /** End-to-end tests only: a shorter wait than the spec's 120 s (tests/e2e/chunk-load.spec.ts). */
  __TEST_CHUNK_LOAD_TIMEOUT_MS__?: unknown;
};

function timeoutMs(): number {
  const asked = (window as RemixWindow).__TEST_CHUNK_LOAD_TIMEOUT_MS__;
  return typeof asked === "number" && asked > 0 && asked < CHUNK_LOAD_TIMEOUT_MS ? asked : CHUNK_LOAD_TIMEOUT_MS;
}

/** Whether a route module the address needs has still not arrived (a slow loader with its modules here is not one). */
function modulesMissing(location: { pathname: string }): boolean {
  const w = window as RemixWindow;
  if (!w.__remixRouter || !w.__remixRouteModules) return true;
  const loaded = w.__remixRouteModules;
  const matches = matchRoutes(w.__remixRouter.routes, location) ?? [];
  return matches.some((m) => m.route.id !== undefined && !(m.route.id in loaded));
}

/**
 * The spec's chunk-loading failure (section 8): a client navigation whose page parts (route modules) have not
 * loaded within 120 s is a ChunkLoadError. The visitor is told so, with a button that loads the address they were
 * going to as a whole page; the error is logged for support. It goes away once the navigation ends after all.
 */
export function ChunkLoadWatch() {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const id = useId();
  const [failed, setFailed] = useState<string | null>(null);
  const reload = useRef<HTMLButtonElement>(null);
  const pending = navigation.state === "idle" ? null : navigation.location;
  const address = pending ? `${pending.pathname}${pending.search}${pending.hash}` : null;

  useEffect(() => {
    if (!address) {
      setFailed(null);
      return;
    }
    const target = new URL(address, window.location.href);
    const timer = setTimeout(() => {
      if (!modulesMissing(target)) return;
      const error = new Error(`Loading the page parts of ${target.pathname} did not finish within ${timeoutMs() / 1000} s`);
      error.name = "ChunkLoadError";
      console.error(error);
      setFailed(address);
    }, timeoutMs());
    return () => clearTimeout(timer);
  }, [address]);

  useEffect(() => {
    if (failed) reload.current?.focus();
  }, [failed]);

  if (!failed) return null;
  return (
    <div className="preparing chunk-load-error" role="alertdialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
      <h2 id={`${id}-title`}>{t("chunkLoad.title")}</h2>
      <p id={`${id}-text`}>{t("chunkLoad.message")}</p>
      <button ref={reload} type="button" className="button" onClick={() => window.location.assign(failed)}>
        {t("chunkLoad.reload")}
      </button>
    </div>
  );
}
