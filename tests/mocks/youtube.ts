import { HttpResponse, http } from "msw";

/** The YouTube Data API's channels.list contract: found, not found (no items) and errors. */
export const KNOWN_CHANNEL = "UC0123456789abcdefghijkl";
export const QUOTA_CHANNEL = "UCquotaquotaquotaquota12";

export const youtubeHandlers = [
  http.get("https://www.googleapis.com/youtube/v3/channels", ({ request }) => {
    const params = new URL(request.url).searchParams;
    if (params.get("key") !== "test-key") {
      return HttpResponse.json(
        { error: { code: 400, message: "API key not valid.", errors: [{ domain: "usageLimits", reason: "keyInvalid" }] } },
        { status: 400 },
      );
    }
    const id = params.get("id");
    if (id === QUOTA_CHANNEL) {
      return HttpResponse.json(
        { error: { code: 403, message: "quota", errors: [{ domain: "youtube.quota", reason: "quotaExceeded" }] } },
        { status: 403 },
      );
    }
    if (id === KNOWN_CHANNEL) {
      return HttpResponse.json({
        kind: "youtube#channelListResponse",
        pageInfo: { totalResults: 1, resultsPerPage: 5 },
        items: [{ kind: "youtube#channel", id, snippet: { title: "Demo Channel", customUrl: "@demo" } }],
      });
    }
    return HttpResponse.json({ kind: "youtube#channelListResponse", pageInfo: { totalResults: 0, resultsPerPage: 5 } });
  }),
];
