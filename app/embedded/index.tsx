import { redirect } from "@remix-run/node";

/** /mypage/sw opens the embedded home. */
export function loader() {
  return redirect("/mypage/sw/home");
}
