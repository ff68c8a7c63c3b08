/** The fuzzer's samples for this console section: a form body per action route id, a value per dynamic segment. */
export const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {
  // Plausible but unconfirmed (no ticks): refused with 400, so the fuzzer never withdraws a demo member.
  "admin-members-detail": [
    { intent: "withdraw", code: "privacy", reason: "Requested in a 1:1 inquiry" },
    { intent: "withdraw", code: "<img src=x onerror=alert(1)>", reason: "x".repeat(5000), confirmDelete: ["on", "off"], confirmLoss: "1" },
  ],
};
// The newcomer demo member's id is not fixed; a missing member answers 404, which the fuzzer accepts.
export const PARAMS: Record<string, Record<string, string>> = { "admin-members-detail": { id: "2" } };
