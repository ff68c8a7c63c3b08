import { describe, expect, it } from "vitest";
import { parseChannelId } from "../../app/market/users/youtube";

const ID = "UCabcdefghijklmnopqrstuv";

describe("YouTube channel input", () => {
  it.each([
    [ID, { id: ID }],
    [`  ${ID} `, { id: ID }],
    [`https://www.youtube.com/channel/${ID}`, { id: ID }],
    [`youtube.com/channel/${ID}/`, { id: ID }],
    ["", { problem: "required" }],
    ["   ", { problem: "required" }],
    ["UCshort", { problem: "invalidId" }],
    [`XX${ID.slice(2)}`, { problem: "invalidId" }],
    ["https://www.youtube.com/@somebody", { problem: "invalidUrl" }],
    [`https://evil.example/channel/${ID}`, { problem: "invalidUrl" }],
    ["https://www.youtube.com/channel/UCbad", { problem: "invalidId" }],
  ])("%s", (input, expected) => {
    expect(parseChannelId(input)).toEqual(expected);
  });
});
