/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />
export {};

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
