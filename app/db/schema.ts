import type { Generated, Insertable, Selectable } from "kysely";

/**
 * Table types shared by SQLite and PostgreSQL. Conventions (docs/architecture.md):
 * instants are ISO-8601 UTC text, booleans are 0/1 integers, money is integer minor units
 * (KRW won, USD cents), bilingual text is a pair of *_ko / *_en columns.
 */
export type ContentsType = "video" | "icon" | "audio" | "font" | "package";
export type PriceType = "paid" | "free" | "benefit";
export type ContentStatus = "active" | "discontinued";
export type TaxonomyKind = "category" | "genre" | "mood" | "theme";

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  nickname: string;
  user_type: number; // 1 individual, 2 business representative
  organization: string | null;
  market_email_agree: number;
  youtube_channel_id: string | null;
  youtube_channel_updated_at: string | null;
  language: string;
  created_at: string;
}

export interface SessionsTable {
  id: string; // random token (cookie gt carries it, signed)
  user_id: number;
  created_at: string;
  expires_at: string;
}

export interface TaxonomyTable {
  id: Generated<number>;
  kind: TaxonomyKind;
  space: ContentsType;
  code: string;
  name_ko: string;
  name_en: string;
  parent_id: number | null;
  sort: number;
}

export interface ContentsTable {
  id: Generated<number>;
  code: string;
  contents_type: ContentsType;
  contents_type_sub: number | null; // audio: 3001 SE, 3002 BGM, 3003 AI BGM
  title_ko: string;
  title_en: string;
  description_ko: string;
  description_en: string;
  tags_ko: string;
  tags_en: string;
  category_id: number | null;
  genre_id: number | null;
  mood_id: number | null;
  price_type: PriceType;
  price_krw: number; // VAT excluded
  price_usd: number; // cents, VAT excluded
  duration_ms: number | null;
  bpm: number | null;
  width: number | null;
  height: number | null;
  preview_path: string | null;
  poster_path: string | null;
  font_family: string | null;
  file_path: string | null;
  file_size: number | null;
  status: ContentStatus;
  /** When it was discontinued (null while on sale, or when unknown). */
  discontinued_at: string | null;
  popularity: number;
  sales_count: number;
  released_at: string;
  created_at: string;
}

export interface PackageItemsTable {
  package_id: number;
  content_id: number;
  sort: number;
}

export interface ThemeItemsTable {
  theme_id: number;
  content_id: number;
  sort: number;
}

export interface BannersTable {
  id: Generated<number>;
  page: string; // home | video | icon | audio | package | benefit | font
  kind: string; // banner | keyvisual
  title_ko: string;
  title_en: string;
  subtitle_ko: string;
  subtitle_en: string;
  image_path: string;
  link: string;
  sort: number;
  visible: Generated<number>; // 1 shown, 0 hidden (migration 0021)
}

export interface KeywordsTable {
  id: Generated<number>;
  page: string;
  kind: string; // popular | recommended | related
  keyword_ko: string;
  keyword_en: string;
  sort: number;
  visible: Generated<number>; // 1 shown, 0 hidden (migration 0021)
}

export interface PassPricesTable {
  id: Generated<number>;
  contents_flag: number; // 1 image, 2 video, 4 audio, other (8) font
  contents_type_sub: number | null; // 3001 SE, 3002 BGM, 3003 AI BGM
  contents_count: number;
  price_krw: number;
  price_usd: number;
  valid_days: number;
}

export interface LicensesTable {
  id: Generated<number>;
  serial: string;
  alias: string | null;
  email: string;
  owner_kind: string; // individual | b2bg | nonmember
  user_id: number | null; // individual owner, or the B2BG representative account
  hw_info: string | null;
  pc_name: string | null;
  status: string; // waiting_registration | registered | waiting_authentication | released | unlimited
  license_type: string; // permanent | one_year | n_days
  valid_until: string | null;
  product_version: string;
  sort_order: number;
  registered_at: string | null;
  created_at: string;
}

export interface CartsTable {
  id: Generated<number>;
  user_id: number | null;
  ngt: string | null;
  content_id: number;
  level_flag: number;
  created_at: string;
}

export interface InterestsTable {
  id: Generated<number>;
  user_id: number;
  content_id: number;
  created_at: string;
}

export interface OrdersTable {
  id: Generated<number>;
  order_no: string;
  user_id: number | null;
  license_id: number | null;
  purchase_category: string; // member | direct | request
  status: string; // waiting | complete | cancelled | partially_cancelled
  method: string | null; // card | phone | kakaopay | vbank | paypal
  currency: string; // KRW | USD
  amount: number;
  vat: number;
  total: number;
  cancel_quantity: number;
  cancel_amount: number;
  buyer_email: string | null;
  message: string | null;
  gateway: string | null;
  gateway_payment_id: string | null;
  vbank_due_at: string | null;
  idempotency_key: string | null;
  ptime: string | null; // payment time
  created_at: string;
  order_name: string | null;
  discount: Generated<number>;
  coupon_code: string | null;
  paid_amount: Generated<number>; // what the gateway confirmed as paid
  refund_deduction: Generated<number>; // kept back from refunds (virtual account 10%)
  vbank_bank: string | null;
  vbank_account: string | null;
  vbank_holder: string | null;
  failure_message: string | null;
  pending_reason: string | null; // e.g. PayPal eCheck
  updated_at: string | null;
  /** The checkout's language, ko or en (migration 0030): a key-only buyer's mails are written in it. */
  language: string | null;
}

export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  content_id: number | null;
  pass_price_id: number | null;
  quantity: number;
  unit_price: number;
  vat: number;
  status: string; // active | cancelled
  first_downloaded_at: string | null;
  expires_at: string | null;
  item_type: string | null; // video | icon | audio | font | package | pass
  cancelled_at: string | null;
  refund_amount: Generated<number>;
  discount: Generated<number>;
}

export interface RefundsTable {
  id: Generated<number>;
  order_id: number;
  request_id: string;
  item_ids: string; // comma-separated order_items ids
  gross: number;
  deduction: number;
  amount: number;
  status: string; // requested | succeeded | failed
  gateway_cancellation_id: string | null;
  reason: string;
  created_at: string;
}

export interface PaymentEventsTable {
  id: Generated<number>;
  gateway: string;
  event_id: string;
  type: string;
  gateway_payment_id: string | null;
  received_at: string;
}

export interface SandboxPaymentsTable {
  id: string;
  payment_id: string;
  order_name: string;
  amount: number;
  vat: number;
  currency: string;
  method: string;
  status: string; // GatewayStatus
  paid: Generated<number>;
  cancelled: Generated<number>;
  buyer_email: string;
  locale: string;
  vbank_bank: string | null;
  vbank_account: string | null;
  vbank_due_at: string | null;
  return_url: string;
  cancel_url: string;
  webhook_url: string;
  failure_reason: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PassesTable {
  id: Generated<number>;
  user_id: number;
  license_id: number | null;
  order_item_id: number | null;
  pass_price_id: number;
  remaining: number;
  total: number;
  status: string; // available | expired | unavailable
  purchased_at: string;
  expires_at: string;
}

export interface DownloadsTable {
  id: Generated<number>;
  content_id: number;
  license_id: number | null;
  user_id: number | null;
  order_item_id: number | null;
  pass_id: number | null;
  kind: string; // purchase | pass | free | benefit
  created_at: string;
  expires_at: string | null; // until when this licence may download the content again without cost
  request_id: string | null;
}

export interface DownloadTokensTable {
  id: string;
  kind: string; // file | bridge
  license_id: number;
  user_id: number | null;
  content_id: number | null;
  payload: string;
  expires_at: string;
  redeemed_at: string | null;
  created_at: string;
}

export interface PurchaseRequestsTable {
  id: Generated<number>;
  request_no: string;
  owner_user_id: number;
  license_id: number;
  request_email: string;
  message: string;
  status: string; // waiting | expired | paid
  currency: string;
  total: number;
  order_id: number | null;
  expires_at: string;
  created_at: string;
  quote_token_hash: string | null;
  language: Generated<string>;
  paid_at: string | null;
  deleted_at: string | null;
}

export interface SignInHandoffsTable {
  id: string; // random; the token carries it encrypted
  kind: string; // member | key | join (what redeeming opens: docs/editor-sign-in.md)
  user_id: number | null; // the member signed in (kind member only)
  license_id: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface OrderRequestsTable {
  order_id: number;
  request_id: number;
}

export interface PurchaseRequestItemsTable {
  id: Generated<number>;
  request_id: number;
  content_id: number;
  unit_price: number;
}

export interface SupportTicketsTable {
  id: Generated<number>;
  user_id: number | null;
  category: string;
  title: string;
  description: string;
  email: string;
  attachment_path: string | null;
  status: string; // accepted | completed
  answer: string | null;
  created_at: string;
  /** When the answer was written (migration 0016). */
  answered_at: string | null;
  /** When the member last edited the question (migration 0016). */
  updated_at: string | null;
  /** The language the inquiry was filed in, ko or en (migration 0016). */
  language: string | null;
}

export interface FaqsTable {
  id: Generated<number>;
  category: string;
  question_ko: string;
  question_en: string;
  answer_ko: string;
  answer_en: string;
  sort: number;
  /** 1: kept but not shown on the storefront (migration 0019). */
  hidden: Generated<number>;
}

/** One step of the six-step user guide on /support (migration 0019), edited in the console. */
export interface GuideStepsTable {
  step: number; // 1..6
  title_ko: string;
  title_en: string;
  text_ko: string;
  text_en: string;
  updated_at: string | null;
}

export interface NoticesTable {
  id: Generated<number>;
  title_ko: string;
  title_en: string;
  body_ko: string;
  body_en: string;
  pinned: number;
  published_at: string;
}

export interface EventsTable {
  id: Generated<number>;
  title_ko: string;
  title_en: string;
  body_ko: string;
  body_en: string;
  image_path: string | null;
  coupon_code: string | null;
  discount_percent: number | null;
  test_only: number;
  starts_at: string;
  ends_at: string;
}

export interface PoliciesTable {
  id: Generated<number>;
  type: string; // terms | privacy | paid
  language: string;
  version: string;
  effective_at: string;
  body: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body_text: string;
  created_at: string;
  body_html: string | null;
  /** Extra headers as a JSON object (List-Unsubscribe...). */
  headers: string | null;
  /** What the message is (welcome, receipt, request, ...). */
  kind: string | null;
  language: string | null;
  status: Generated<string>; // queued | sending | sent | failed
  attempts: Generated<number>;
  next_attempt_at: string | null;
  claimed_until: string | null;
  sent_at: string | null;
  last_error: string | null;
}

/** One row: the catalog version the search's in-memory columns compare against (bigint: a string from PostgreSQL). */
export interface SearchStateTable {
  id: number;
  version: number | string;
}

/** What the storefront publishes, as one number bumped by triggers (migration 0025). */
export interface ContentVersionTable {
  id: number;
  version: number | string;
}

export interface SearchTermsTable {
  term: string;
  length: number;
}

export interface WithdrawalsTable {
  id: Generated<number>;
  reason: string;
  detail: string | null;
  user_type: number;
  created_at: string;
}

export interface SandboxWebhooksTable {
  id: string;
  msg_id: string; // the webhook-id header: one per event, the same on every delivery of it
  payment_id: string;
  url: string;
  body: string;
  attempts: Generated<number>;
  next_at: string;
  delivered_at: string | null;
  created_at: string;
}

export interface CouponRedemptionsTable {
  id: Generated<number>;
  user_id: number;
  code: string;
  order_id: number;
  created_at: string;
}

export interface CartPassesTable {
  id: Generated<number>;
  user_id: number;
  pass_price_id: number;
  created_at: string;
}

/** One limiter counter (app/market/rate-limits.server.ts); instants are epoch milliseconds, the key a hash. */
export interface RateLimitsTable {
  bucket: string;
  key: string;
  hits: number;
  blocked_until: Generated<number>;
  expires_at: number;
}

export interface JobLeasesTable {
  name: string; // the job
  holder: string; // the process running it
  expires_at: string; // when another process may take it over
}

/** An operator of the console (app/market/operators/), apart from members. */
export interface OperatorsTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  role: string; // support | catalog | finance | admin
  active: Generated<number>;
  created_at: string;
  last_sign_in_at: string | null;
}

export interface OperatorSessionsTable {
  id: string; // SHA-256 of the cookie's token, base64url
  operator_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string; // the absolute end; the idle end is last_seen_at + OPERATOR_IDLE_MS
}

/** One operator action: who, what, on what, the state before and after (JSON), and the reason when one is given. */
export interface AuditLogTable {
  id: Generated<number>;
  operator_id: number | null;
  operator_email: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before_json: string | null;
  after_json: string | null;
  reason: string | null;
  ip: string | null;
  created_at: string;
  /** The row's place in the hash chain (1, 2, 3…), the previous row's hash and its own (app/db/audit-chain.ts). */
  seq: number;
  prev_hash: string;
  hash: string;
}

export type MediaJobState = "queued" | "running" | "done" | "failed";

/** The previews of an uploaded item, made after the response (app/market/catalog/media-jobs.server.ts). */
export interface MediaJobsTable {
  id: Generated<number>;
  content_id: number;
  kind: string; // video | audio | icon | font | package
  source_path: string; // the original, relative to DATA_DIR/storage
  state: MediaJobState;
  progress: Generated<number>; // 0-100
  attempts: Generated<number>;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  taxonomy: TaxonomyTable;
  contents: ContentsTable;
  package_items: PackageItemsTable;
  theme_items: ThemeItemsTable;
  banners: BannersTable;
  keywords: KeywordsTable;
  pass_prices: PassPricesTable;
  licenses: LicensesTable;
  carts: CartsTable;
  interests: InterestsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  refunds: RefundsTable;
  payment_events: PaymentEventsTable;
  sandbox_payments: SandboxPaymentsTable;
  sandbox_webhooks: SandboxWebhooksTable;
  coupon_redemptions: CouponRedemptionsTable;
  download_tokens: DownloadTokensTable;
  cart_passes: CartPassesTable;
  passes: PassesTable;
  downloads: DownloadsTable;
  purchase_requests: PurchaseRequestsTable;
  purchase_request_items: PurchaseRequestItemsTable;
  support_tickets: SupportTicketsTable;
  faqs: FaqsTable;
  notices: NoticesTable;
  events: EventsTable;
  policies: PoliciesTable;
  settings: SettingsTable;
  mail_outbox: MailOutboxTable;
  order_requests: OrderRequestsTable;
  sign_in_handoffs: SignInHandoffsTable;
  search_state: SearchStateTable;
  content_version: ContentVersionTable;
  search_terms: SearchTermsTable;
  withdrawals: WithdrawalsTable;
  rate_limits: RateLimitsTable;
  job_leases: JobLeasesTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  audit_log: AuditLogTable;
  guide_steps: GuideStepsTable;
  media_jobs: MediaJobsTable;
}

export type Content = Selectable<ContentsTable>;
export type NewContent = Insertable<ContentsTable>;
export type Taxonomy = Selectable<TaxonomyTable>;
export type License = Selectable<LicensesTable>;
export type User = Selectable<UsersTable>;
