/**
 * YouTube Data API v3 channel check (`channels.list`): with an API key the store asks whether a channel ID
 * exists before registering it; without one it checks the format only. Not found is a 200 answer with no
 * `items`; errors are `{ error: { code, message } }`.
 */
export type ChannelCheck = { state: "found"; title: string } | { state: "not_found" } | { state: "no_response" } | { state: "unchecked" };

export interface YoutubeChannels {
  check(channelId: string): Promise<ChannelCheck>;
}

export function createYoutubeChannels(options: { apiKey?: string; fetchImpl?: typeof fetch; timeoutMs?: number }): YoutubeChannels {
  const fetchImpl = options.fetchImpl ?? fetch;
  return {
    async check(channelId) {
      if (!options.apiKey) return { state: "unchecked" };
      const url = new URL("https://www.googleapis.com/youtube/v3/channels");
      url.searchParams.set("part", "snippet");
      url.searchParams.set("id", channelId);
      url.searchParams.set("key", options.apiKey);
      try {
        const res = await fetchImpl(url, {
          signal: AbortSignal.timeout(options.timeoutMs ?? 3000),
          headers: { accept: "application/json" },
        });
        if (!res.ok) return { state: "no_response" };
        const body = (await res.json()) as { items?: { id?: string; snippet?: { title?: string } }[] };
        const item = body.items?.find((i) => i.id === channelId);
        return item ? { state: "found", title: item.snippet?.title ?? "" } : { state: "not_found" };
      } catch {
        return { state: "no_response" };
      }
    },
  };
}
