import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../app/db/seed/index.server";
import { createYoutubeChannels } from "../../app/integrations/youtube/channels.server";
import { KNOWN_CHANNEL, QUOTA_CHANNEL, youtubeHandlers } from "../mocks/youtube";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";

const server = setupServer(...youtubeHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe("YouTube channel adapter (channels.list contract reproduced with msw)", () => {
  it("finds a known channel and reports an unknown one as not found", async () => {
    const yt = createYoutubeChannels({ apiKey: "test-key" });
    expect(await yt.check(KNOWN_CHANNEL)).toEqual({ state: "found", title: "Demo Channel" });
    expect(await yt.check("UCzzzzzzzzzzzzzzzzzzzzzz")).toEqual({ state: "not_found" });
  });

  it("answers no_response on quota errors, bad keys and network failures", async () => {
    expect(await createYoutubeChannels({ apiKey: "test-key" }).check(QUOTA_CHANNEL)).toEqual({ state: "no_response" });
    expect(await createYoutubeChannels({ apiKey: "wrong" }).check(KNOWN_CHANNEL)).toEqual({ state: "no_response" });
    const failing = createYoutubeChannels({ apiKey: "test-key", fetchImpl: async () => Promise.reject(new TypeError("fetch failed")) });
    expect(await failing.check(KNOWN_CHANNEL)).toEqual({ state: "no_response" });
  });

  it("checks nothing without an API key (format only)", async () => {
    expect(await createYoutubeChannels({}).check(KNOWN_CHANNEL)).toEqual({ state: "unchecked" });
  });
});

describe("registering a channel with an API key configured", () => {
  it("refuses a channel YouTube does not know, says when YouTube does not answer, and registers a known one", async () => {
    const t = await createTestDb();
    try {
      const call = await createTestApp(t.db, { dataDir: t.dataDir, env: { YOUTUBE_API_KEY: "test-key" } });
      const login = await call("/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: DEMO.member.email, password: DEMO.password }),
        ip: "198.51.100.50",
      });
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const register = async (channel: string) =>
        (
          await (
            await call("/mypage/member", {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en", cookie },
              body: new URLSearchParams({ intent: "youtube", channel }),
            })
          ).text()
        ).replaceAll("<!-- -->", "");
      expect(await register("UCzzzzzzzzzzzzzzzzzzzzzz")).toContain("Your channel ID is invalid. Please enter a valid channel ID.");
      expect(await register(QUOTA_CHANNEL)).toContain("YouTube did not respond. Please try again in a few minutes");
      expect(await register(KNOWN_CHANNEL)).toContain("Your YouTube channel has been registered.");
    } finally {
      await t.drop();
    }
  });
});
