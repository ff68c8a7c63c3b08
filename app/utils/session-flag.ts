import { useEffect, useState } from "react";

/** The browser's own "signed in" flag (spec section 4), shared by the tabs of one browser. */
export const SIGNED_IN_FLAG = "market.signedIn";
/** Set for the reload that follows a stale session, so the reloaded page says the visitor was signed out. */
export const SIGNED_OUT_NOTICE = "market.signedOut";

/**
 * Keeps the local signed-in flag in step with the server (spec section 4): signed in sets it; a page that finds
 * the flag set while the session is gone (signed out elsewhere, the session expired) clears it, drops the order
 * data kept in the tab and reloads, so the cart count and every page come back as a visitor's. Another tab that
 * signs out tells this one through the storage event.
 */
export function useSessionFlag(signedIn: boolean) {
  useEffect(() => {
    let stored: string | null = null;
    try {
      stored = window.localStorage.getItem(SIGNED_IN_FLAG);
      if (signedIn) window.localStorage.setItem(SIGNED_IN_FLAG, "1");
      else if (stored === "1") {
        window.localStorage.setItem(SIGNED_IN_FLAG, "0");
        window.sessionStorage.clear();
        window.sessionStorage.setItem(SIGNED_OUT_NOTICE, "1");
        window.location.reload();
        return;
      }
    } catch {
      return; // storage disabled: the server's cookies still decide
    }
    const onStorage = (event: StorageEvent) => {
      if (event.key === SIGNED_IN_FLAG && event.newValue === "0" && signedIn) window.location.reload();
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [signedIn]);
}

/** Signing out in this tab: the flag goes first, so the signed-out page does not take itself for a stale one. */
export function clearSessionFlag() {
  try {
    window.localStorage.setItem(SIGNED_IN_FLAG, "0");
    window.sessionStorage.clear();
  } catch {
    // storage disabled
  }
}

/**
 * Whether this page comes from the reload of a stale session (spec section 4 and 8: the signed-out message asking
 * to sign in again): read once, then forgotten.
 */
export function useSignedOutNotice(): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    try {
      if (window.sessionStorage.getItem(SIGNED_OUT_NOTICE) === "1") {
        window.sessionStorage.removeItem(SIGNED_OUT_NOTICE);
        setShown(true);
      }
    } catch {
      // storage disabled
    }
  }, []);
  return shown;
}
