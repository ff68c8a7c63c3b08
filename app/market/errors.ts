/** A domain error with a stable code; routes translate the code, the API maps it to result.code/message. */
export class MarketError extends Error {
  constructor(
    public readonly code: string,
    public readonly status: number,
    message?: string,
  ) {
    super(message ?? code);
    this.name = "MarketError";
  }
}
