import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { operatorSignOut } from "../market/operators/accounts.server";
import { operatorCookie, readOperatorToken } from "./guard.server";

/** POST /admin/logout: ends the console session (a GET is not served: signing out is a write). */
export async function action({ request, context }: ActionFunctionArgs) {
  await operatorSignOut(context.db, await readOperatorToken(request, context), context.clientIp);
  return redirect("/admin/login", { headers: { "Set-Cookie": await operatorCookie(context).serialize("", { maxAge: 0 }) } });
}

export async function loader() {
  throw new Response(null, { status: 405, headers: { Allow: "POST" } });
}
