import { HttpResponse, http } from "msw";

/**
 * The company account service's HTTP contract (docs/editor-sign-in.md): `GET /licenses/{serial}/owner` with the
 * `hw_info` header and a bearer token answers the owning account's e-mail and user type (1 individual, 2 business),
 * 404 for an unknown installation, 401 without the token. `owners` maps "serial|hw_info" to an e-mail, or to
 * `{ email, user_type }` for a business account's seat.
 */
export const ACCOUNTS_BASE = "https://accounts.example.test/v1";
export const ACCOUNTS_TOKEN = "accounts-test-token";

export function accountsHandlers(owners: Record<string, string | { email: string; user_type: 1 | 2 }>) {
  return [
    http.get(`${ACCOUNTS_BASE}/licenses/:serial/owner`, ({ params, request }) => {
      if (request.headers.get("authorization") !== `Bearer ${ACCOUNTS_TOKEN}`)
        return HttpResponse.json({ error: "unauthorized" }, { status: 401 });
      const owner = owners[`${params.serial}|${request.headers.get("hw_info")}`];
      if (!owner) return HttpResponse.json({ error: "not found" }, { status: 404 });
      return HttpResponse.json(typeof owner === "string" ? { email: owner, user_type: 1 } : owner);
    }),
  ];
}
