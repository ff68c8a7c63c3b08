import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useTranslation } from "../i18n/react";

export const CART_MESSAGE_MS = 2_000;

/** A message that disappears after 2 seconds (spec section 9), announced politely. */
export function TimedMessage({ text, tone = "info" }: { text: string | null; tone?: "info" | "error" }) {
  const [shown, setShown] = useState(text);
  useEffect(() => {
    setShown(text);
    if (!text) return;
    const timer = setTimeout(() => setShown(null), CART_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <p className={`timed-message${shown ? ` is-${tone} notice-flash` : ""}`} role="status" aria-live="polite">
      {shown}
    </p>
  );
}

/**
 * Add to cart and add to favorites for one item. With JavaScript the forms post in the background and the
 * outcome shows for 2 seconds; without it they post normally and the page comes back with the outcome.
 */
export function CartButtons({
  code,
  here,
  signedIn,
  initialOutcome,
}: {
  code: string;
  here: string;
  signedIn: boolean;
  initialOutcome: string | null;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const cart = useFetcher<{ code: string }>({ key: `cart-${code}` });
  const fav = useFetcher<{ ok: boolean }>({ key: `fav-${code}` });
  // A refusal (already in the cart, cart full...) is shown as an error, not in the success colour.
  const [message, setMessage] = useState<{ text: string; nonce: number; tone: "info" | "error" } | null>(
    initialOutcome ? { text: t(`cart.result.${initialOutcome}`), nonce: 0, tone: initialOutcome === "SUCCESS" ? "info" : "error" } : null,
  );
  useEffect(() => {
    if (cart.state === "idle" && cart.data?.code)
      setMessage({ text: t(`cart.result.${cart.data.code}`), nonce: Date.now(), tone: cart.data.code === "SUCCESS" ? "info" : "error" });
  }, [cart.state, cart.data, t]);
  useEffect(() => {
    if (fav.state === "idle" && fav.data?.ok) setMessage({ text: t("favorites.added"), nonce: Date.now(), tone: "info" });
  }, [fav.state, fav.data, t]);
  return (
    <div className="detail-actions">
      <cart.Form method="post" action="/cart">
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="code" value={code} />
        <input type="hidden" name="redirectTo" value={here} />
        <input type="hidden" name="js" value={hydrated ? "1" : ""} />
        <button type="submit" className="button" disabled={cart.state !== "idle"} aria-busy={cart.state !== "idle"}>
          {t("item.addToCart")}
        </button>
      </cart.Form>
      {/* Buy now checks out this one item (/pay01); the cart is left as it was. A plain post, with or without JS. */}
      <Form method="post" action="/cart">
        <input type="hidden" name="intent" value="buyNow" />
        <input type="hidden" name="code" value={code} />
        <input type="hidden" name="redirectTo" value={here} />
        <button type="submit" className="button button-secondary">
          {t("item.buyNow")}
        </button>
      </Form>
      {signedIn ? (
        <fav.Form method="post" action="/mypage/interest">
          <input type="hidden" name="intent" value="add" />
          <input type="hidden" name="code" value={code} />
          <input type="hidden" name="redirectTo" value={here} />
          <input type="hidden" name="js" value={hydrated ? "1" : ""} />
          <button type="submit" className="button button-ghost" disabled={fav.state !== "idle"}>
            {t("item.addToFavorites")}
          </button>
        </fav.Form>
      ) : (
        <a className="button button-ghost" href={`/login?redirectTo=${encodeURIComponent(here)}`}>
          {t("item.addToFavorites")}
        </a>
      )}
      <TimedMessage key={message?.nonce} text={message?.text ?? null} tone={message?.tone} />
    </div>
  );
}
