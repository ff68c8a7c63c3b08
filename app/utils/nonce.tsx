import { createContext, useContext } from "react";

/** The per-request CSP nonce. Only the server knows it; browsers hide it from scripts anyway. */
export const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
