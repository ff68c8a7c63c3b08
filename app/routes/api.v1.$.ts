import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApi } from "../api/router.server";

/** The HTTP API door (spec section 7) under /api/v1; everything else lives in app/api. */
export function loader({ request, context, params }: LoaderFunctionArgs) {
  return handleApi(request, context, params["*"] ?? "");
}

export function action({ request, context, params }: ActionFunctionArgs) {
  return handleApi(request, context, params["*"] ?? "");
}
