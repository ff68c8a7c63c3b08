/**
 * The editor's URL scheme and the deep link that hands a download over to it: the editor registers the scheme on
 * install and redeems the one-time token with its licence headers. Plain module (no `.server`): the storefront's
 * /mypage/download-bridge and the webview's /mypage/sw/download/start both build their links here.
 */
export const EDITOR_SCHEME = "videoasset-editor";

/** Hand-over tokens are base64url, 20–64 characters (downloads.server.ts `newToken`). */
export const isBridgeToken = (token: string) => /^[\w-]{20,64}$/.test(token);

/** `videoasset-editor://download?token=...&store=<origin>`: the store tells the editor where to redeem the token. */
export function editorDownloadLink(token: string, origin: string) {
  return `${EDITOR_SCHEME}://download?token=${token}&store=${encodeURIComponent(origin.replace(/\/$/, ""))}`;
}
