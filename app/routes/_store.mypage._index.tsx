import { redirect } from "@remix-run/node";

/** /mypage is My page home. */
export function loader() {
  return redirect("/mypage/home");
}
