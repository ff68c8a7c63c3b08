/** The fuzzer's samples for this console section: a form body per action route id, a value per dynamic segment. */
export const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {
  "admin-login": [{ email: "operator@example.com", password: "wrong-password-1!", next: "//evil.example" }, { email: "" }],
  "admin-logout": [{}],
  "admin-operators": [
    { intent: "create", email: "x@example.com", name: "X", password: "short", role: "root" },
    { intent: "update", id: "1", role: "admin", active: "1" },
  ],
};
export const PARAMS: Record<string, Record<string, string>> = {};
