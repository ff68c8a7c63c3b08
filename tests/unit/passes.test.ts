import { describe, expect, it } from "vitest";
import { passGroupOf } from "../../app/market/passes.server";

describe("pass price groups (spec section 3)", () => {
  it("maps contents_flag and contents_type_sub to the six groups", () => {
    expect(passGroupOf(1, null)).toBe("image");
    expect(passGroupOf(2, null)).toBe("video");
    expect(passGroupOf(4, 3001)).toBe("audio_se");
    expect(passGroupOf(4, 3002)).toBe("audio_bgm");
    expect(passGroupOf(4, 3003)).toBe("audio_ai");
    expect(passGroupOf(8, null)).toBe("font");
    expect(passGroupOf(16, null)).toBe("font");
  });
});
