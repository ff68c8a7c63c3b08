import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/react";

export const TO_TOP_THRESHOLD_PX = 50;

/** The to-top button: it appears once the page is scrolled more than 50 px. */
export function ToTopButton() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(window.scrollY > TO_TOP_THRESHOLD_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      className="to-top"
      onClick={() => {
        window.scrollTo({ top: 0, behavior: "smooth" });
        document.getElementById("main")?.focus({ preventScroll: true });
      }}
    >
      <span aria-hidden="true">↑</span> {t("toTop")}
    </button>
  );
}
