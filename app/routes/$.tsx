import { redirect } from "@remix-run/node";

/** Unknown paths redirect to /404 (spec section 2). */
export function loader() {
  return redirect("/404");
}

export function action() {
  return redirect("/404");
}
