import { describe, expect, it } from "vitest";
import { moveInOrder } from "../../app/market/sort-order.server";

describe("moveInOrder, the one reorder rule (banners, keywords, licences)", () => {
  it("swaps a row with its neighbour up or down", () => {
    expect(moveInOrder([1, 2, 3, 4], 3, "up")).toEqual([1, 3, 2, 4]);
    expect(moveInOrder([1, 2, 3, 4], 2, "down")).toEqual([1, 3, 2, 4]);
  });

  it("leaves the first row's move up and the last row's move down alone", () => {
    expect(moveInOrder([1, 2, 3], 1, "up")).toEqual([1, 2, 3]);
    expect(moveInOrder([1, 2, 3], 3, "down")).toEqual([1, 2, 3]);
  });

  it("leaves a lone row, an empty scope and an unknown id alone", () => {
    expect(moveInOrder([7], 7, "up")).toEqual([7]);
    expect(moveInOrder([7], 7, "down")).toEqual([7]);
    expect(moveInOrder([], 7, "down")).toEqual([]);
    expect(moveInOrder([1, 2, 3], 9, "up")).toEqual([1, 2, 3]);
  });

  it("works on ids that are not consecutive and does not change its input", () => {
    const ids = [40, 3, 17];
    expect(moveInOrder(ids, 17, "up")).toEqual([40, 17, 3]);
    expect(ids).toEqual([40, 3, 17]);
  });

  it("gives back the first order after a move down and up again", () => {
    const ids = [5, 6, 7, 8];
    for (const id of [5, 6, 7]) expect(moveInOrder(moveInOrder(ids, id, "down"), id, "up")).toEqual(ids);
  });
});
