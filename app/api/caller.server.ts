import { MarketError } from "../market/errors";
import { readShopper } from "../utils/shopper.server";
import type { ApiCall } from "./router.server";

/** The signed-in member an API call speaks for (authorizationToken header or the gt/gsi cookies), or a 401. */
export async function requireMember(call: ApiCall) {
  const { viewer } = await readShopper(call.request, call.context);
  if (!viewer) throw new MarketError("UNAUTHORIZED", 401, "Sign in first: send the authorizationToken header");
  return viewer;
}

/** The call's JSON body, or a 400 that says so. */
export async function readJson(call: ApiCall): Promise<unknown> {
  try {
    return await call.request.json();
  } catch {
    throw new MarketError("BAD_JSON", 400, "The body must be JSON");
  }
}
