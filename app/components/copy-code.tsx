import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

/**
 * A coupon code with a copy button and the copy-code confirmation (spec section 2). The code is selectable for
 * copying by hand; the button appears once scripts run, and its outcome is announced politely.
 */
export function CopyCode({
  code,
  label,
  messages,
}: {
  code: string;
  label: string;
  messages: { copy: string; copied: string; failed: string };
}) {
  const hydrated = useHydrated();
  const [result, setResult] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setResult(messages.copied);
    } catch {
      setResult(messages.failed);
    }
  };
  return (
    <>
      <div className="promo-code">
        <span>{label}</span> <code>{code}</code>
        {hydrated ? (
          <button type="button" className="button" onClick={copy}>
            {messages.copy}
          </button>
        ) : null}
      </div>
      <p role="status" aria-live="polite" className="form-result">
        {result ?? ""}
      </p>
    </>
  );
}
