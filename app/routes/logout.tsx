import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { signOut } from "../market/users/auth.server";
import { signedOutCookies } from "../utils/auth.server";
import { shopCookies } from "../utils/cookies.server";
import { safePath } from "../utils/redirect";

/** Sign-out removes the session and both cookies, gt and gsi (spec section 4). */
export async function action({ request, context }: ActionFunctionArgs) {
  const gt = await shopCookies(context.env).gt.parse(request.headers.get("cookie"));
  await signOut(context.db, typeof gt === "string" ? gt : null);
  const headers = new Headers();
  for (const c of await signedOutCookies(context)) headers.append("Set-Cookie", c);
  const form = await request.formData().catch(() => null);
  return redirect(safePath(form?.get("redirectTo"), "/"), { headers });
}

export function loader() {
  return redirect("/");
}
