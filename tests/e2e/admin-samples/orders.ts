/** The fuzzer's samples for this console section: a form body per action route id, a value per dynamic segment. */
export const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {
  "admin-orders-detail": [
    { intent: "cancel", line: ["1"], reason: "customer asked by phone", bank: "", account: "", holder: "" },
    {
      intent: "cancel",
      line: ["-1", "x".repeat(40)],
      reason: "<script>alert(1)</script>",
      override: "yes",
      bank: "B",
      account: "{}",
      holder: "",
    },
  ],
  "admin-orders-deposits": [
    { intent: "deposit", id: "1" },
    { intent: "deposit", id: "99999999999999999999" },
  ],
  "admin-orders-reconciliation": [
    { intent: "reconcile", id: "1" },
    { intent: "refund", id: "../1" },
  ],
};
export const PARAMS: Record<string, Record<string, string>> = { "admin-orders-detail": { id: "1" } };
