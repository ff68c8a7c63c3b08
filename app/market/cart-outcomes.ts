/** The outcomes a cart add can answer (spec section 8 and why an item cannot go in), shared with the pages. */
export const CART_OUTCOMES = ["SUCCESS", "ALREADY_HAVE_ITEM", "EXCEED_CART", "FREE_CONTENT", "DISCONTINUED", "NOT_FOUND"] as const;
