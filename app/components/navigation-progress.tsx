import { useNavigation } from "@remix-run/react";
import { useTranslation } from "../i18n/react";

/** A slim bar at the top of the window while a navigation or form submission is under way. */
export function NavigationProgress() {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const busy = navigation.state !== "idle";
  return (
    <div className={`nav-progress${busy ? " is-busy" : ""}`} role="progressbar" aria-hidden={!busy} aria-label={t("loading")}>
      <span />
    </div>
  );
}
