import { useTranslation } from "../i18n/react";

/** The purchase-request flow's three steps (spec section 2: it ends with a printable quote). */
export function RequestSteps({ current }: { current: 1 | 2 | 3 }) {
  const { t } = useTranslation();
  return (
    <ol className="pay-steps" aria-label={t("request.steps")}>
      {([1, 2, 3] as const).map((n) => (
        <li
          key={n}
          aria-current={n === current ? "step" : undefined}
          className={n === current ? "current" : n < current ? "done" : undefined}
        >
          <span className="pay-step-no">{n}</span> {t(`request.step${n}`)}
        </li>
      ))}
    </ol>
  );
}
