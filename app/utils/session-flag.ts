import { useEffect } from "react";

/** The browser's own "signed in" flag (spec section 4), shared by the tabs of one browser. */
export const SIGNED_IN_FLAG = "market.signedIn";

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
