import { useNavigation } from "@remix-run/react";
import { useTranslation } from "../i18n/react";

/**
 * A slim bar at the top of the window while a navigation or form submission is under way. While busy it is a
 * progress bar in a landmark of its own (every piece of content sits in one, issue 26); idle, it is hidden from
 * assistive technology.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy = navigation.state !== "idle";
  return (
    <aside aria-label={t("loading")} aria-hidden={!busy}>
      <div className={`nav-progress${busy ? " is-busy" : ""}`} role="progressbar" aria-label={t("loading")}>
        <span />
      </div>
    </aside>
  );
}
