import { describe, expect, it } from "vitest";
import { cartHref, nextOff, parseOff } from "~/market/cart-selection";

describe("cart selection", () => {
  it("reads unticked lines from the address, dropping what is not an id", () => {
    expect(parseOff("3,7,x,-1,3")).toEqual([3, 7]);
    expect(parseOff(null)).toEqual([]);
  });
  it("keeps other tabs' unticked lines and takes this tab's from its boxes", () => {
    expect(nextOff([1, 2], [2, 3, 4], [2, 4])).toEqual([1, 3]);
    expect(nextOff([], [5], [5])).toEqual([]);
  });
  it("writes the tab and the unticked lines in the address", () => {
    expect(cartHref(null, [])).toBe("/cart");
    expect(cartHref("video", [3, 7])).toBe("/cart?type=video&off=3%2C7");
  });
});
