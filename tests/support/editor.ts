import type { createTestApp } from "./app";

type Call = Awaited<ReturnType<typeof createTestApp>>;
type Envelope = { result: { code: number; message: string }; data: any };

/**
 * A small simulator of the video editor: it speaks to the store with the licence headers it would send
 * (`license_id`, `hw_info`, `language`), asks what its licence holds, downloads, redeems a hand-over token from
 * the website's bridge page, and fetches the files behind the signed links — so the whole editor path is tested
 * without the editor.
 */
export class EditorSimulator {
  constructor(
    private readonly call: Call,
    readonly serial: string,
    readonly hwInfo: string,
    private readonly extra: Record<string, string> = {},
  ) {}

  private headers(more: Record<string, string> = {}) {
    return { license_id: this.serial, hw_info: this.hwInfo, language: "en", "content-type": "application/json", ...this.extra, ...more };
  }

  async api(path: string, body?: unknown, more: Record<string, string> = {}): Promise<{ status: number; json: Envelope }> {
    const res = await this.call(`/api/v1/${path}`, {
      method: body === undefined ? "GET" : "POST",
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: this.headers(more),
    });
    return { status: res.status, json: (await res.json()) as Envelope };
  }

  identify() {
    return this.api("products/identify/hwinfo");
  }
  library() {
    return this.api("users/downloads");
  }
  download(codes: string[], mode: "owned" | "free" | "pass" = "owned", passId?: number, more: Record<string, string> = {}) {
    const path = mode === "owned" ? "contents/downloads" : `contents/downloads/${mode}`;
    return this.api(path, { contents_list: codes.map((item_code) => ({ item_code })), ...(passId ? { pass_id: passId } : {}) }, more);
  }
  redeem(token: string) {
    return this.api("contents/downloads/redeem", { token });
  }
  overlap(codes: string[]) {
    return this.api("users/contents/overlap", { contents_list: codes.map((item_code) => ({ item_code })) });
  }
  /**
   * Opens an embedded page (/mypage/sw/...) as the editor's webview does: with the licence headers on the first
   * request; pass `cookie` (and no headers) for the requests the webview makes afterwards.
   */
  async page(path: string, options: { form?: Record<string, string | string[]>; cookie?: string; headers?: boolean } = {}) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(options.form ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    const withHeaders = options.headers ?? !options.cookie;
    return this.call(path, {
      method: options.form ? "POST" : "GET",
      body: options.form ? body : undefined,
      headers: {
        "accept-language": "en",
        ...(withHeaders ? { license_id: this.serial, hw_info: this.hwInfo } : {}),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
    });
  }

  /**
   * A direct purchase as the editor makes it (issue 24): the licence headers name the business key, no login and
   * no e-mail typed; answers the order number (the sandbox then approves or issues the virtual account).
   */
  async buyDirect(contentIds: number[], method: string, idempotencyKey: string): Promise<string> {
    const placed = await this.api("payments", {
      items: contentIds.map((id) => ({ kind: "content", id })),
      method,
      agree_terms: true,
      agree_paid: true,
      idempotency_key: idempotencyKey,
    });
    if (placed.status !== 200) throw new Error(`direct purchase refused: ${placed.status} ${JSON.stringify(placed.json.result)}`);
    return placed.json.data.order_no as string;
  }

  /** Opens a payment of this licence in the webview (/mypage/sw/pay/{id}), with the headers or the webview's cookie. */
  paymentPage(orderId: number, cookie?: string) {
    return this.page(`/mypage/sw/pay/${orderId}`, cookie ? { cookie } : {});
  }

  /** Cancels lines of a payment from the webview's detail page, as its form posts without scripts. */
  cancelPayment(
    orderId: number,
    form: { line: string[]; reason: string; bank?: string; account?: string; holder?: string },
    cookie?: string,
  ) {
    return this.page(`/mypage/sw/pay/${orderId}`, { form, ...(cookie ? { cookie } : {}) });
  }

  /** The one-time token in the deep link a hand-over page opens (videoasset-editor://download?token=...). */
  static deepLinkToken(html: string): string | null {
    return /videoasset-editor:\/\/download\?token=([\w-]+)/.exec(html)?.[1] ?? null;
  }

  /** Fetches a signed link as the editor's downloader does (optionally a byte range, to resume). */
  async fetchFile(url: string, range?: string) {
    const res = await this.call(url, { headers: range ? { range } : {} });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  /** Asks for a sign-in hand-off (POST auth/request_blowfish) as the editor does when it opens the market. */
  requestHandOff() {
    return this.api("auth/request_blowfish", {});
  }

  /** Redeems a hand-off through the API (GET etc/decrypt?encrypt&type=1): the answer and the cookies it set. */
  async decrypt(token: string) {
    const res = await this.call(`/api/v1/etc/decrypt?encrypt=${encodeURIComponent(token)}&type=1`, { headers: { language: "en" } });
    return { status: res.status, json: (await res.json()) as Envelope, cookie: EditorSimulator.cookiesOf(res) };
  }

  /** Opens /bridge with a hand-off as the webview does: where it goes, the cookies it set, and the page. */
  async bridge(token: string, redirectTo?: string) {
    const q = new URLSearchParams({ encrypt: token, ...(redirectTo ? { redirectTo } : {}) });
    const res = await this.call(`/bridge?${q}`, { headers: { "accept-language": "en" } });
    return { status: res.status, location: res.headers.get("location"), cookie: EditorSimulator.cookiesOf(res), html: await res.text() };
  }

  /** The cookies a response set, as a Cookie header (the ones it cleared left out). */
  static cookiesOf(res: Response): string {
    return res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .filter((c) => !c.endsWith("="))
      .join("; ");
  }
}
