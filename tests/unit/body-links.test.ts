import { describe, expect, it } from "vitest";
import { bodyParts, bodyText } from "../../app/utils/body-links";

describe("links in an operator's text", () => {
  it("turns [words](/path) into a link to a page of the store", () => {
    expect(bodyParts("See [the newest clips](/list/video/all?sort=recent) today.")).toEqual([
      { text: "See " },
      { text: "the newest clips", href: "/list/video/all?sort=recent" },
      { text: " today." },
    ]);
    expect(bodyText("See [the newest clips](/list/video/all?sort=recent) today.")).toBe("See the newest clips today.");
  });

  it("leaves other sites, scripts and plain brackets as typed", () => {
    for (const line of ["[x](https://evil.test)", "[x](//evil.test/a)", "[x](javascript:alert(1))", "a [note] (here)", "plain"])
      expect(bodyParts(line)).toEqual([{ text: line }]);
  });
});
