import { type ReactNode, useEffect, useRef } from "react";

/**
 * A modal dialog (<dialog> opened with showModal): the page behind is inert, focus stays inside, Escape closes it.
 * The server renders it open, so without JavaScript it still shows (in the page's flow, as a plain box).
 */
export function ModalDialog({
  labelledBy,
  describedBy,
  className,
  children,
}: {
  labelledBy: string;
  describedBy?: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || typeof dialog.showModal !== "function") return;
    // Rendered open (non-modal) by the server: reopen it as a modal, which traps focus and takes Escape.
    if (dialog.open) dialog.close();
    dialog.showModal();
    return () => dialog.close();
  }, []);
  return (
    <dialog ref={ref} open className={className} aria-labelledby={labelledBy} aria-describedby={describedBy} aria-modal="true">
      {children}
    </dialog>
  );
}
