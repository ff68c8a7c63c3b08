/** The standard address of a YouTube channel; members enter only what follows it. */
export const YOUTUBE_CHANNEL_PREFIX = "https://www.youtube.com/channel/";
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;

export type ChannelIdProblem = "required" | "invalidUrl" | "invalidId";

/**
 * A channel ID from what the member typed: the ID itself, or the full standard channel address. Any other
 * address is 'Please enter a valid URL address.'; a malformed ID is 'Your channel ID is invalid...'.
 */
export function parseChannelId(input: string): { id: string } | { problem: ChannelIdProblem } {
  const value = input.trim();
  if (!value) return { problem: "required" };
  const looksLikeUrl = /^(https?:\/\/|www\.|youtube\.com|m\.youtube\.com)/i.test(value) || value.includes("/");
  if (looksLikeUrl) {
    const match = /^(?:https?:\/\/)?(?:www\.|m\.)?youtube\.com\/channel\/([^/?#]+)\/?(?:[?#].*)?$/i.exec(value);
    if (!match) return { problem: "invalidUrl" };
    return CHANNEL_ID.test(match[1]) ? { id: match[1] } : { problem: "invalidId" };
  }
  return CHANNEL_ID.test(value) ? { id: value } : { problem: "invalidId" };
}
