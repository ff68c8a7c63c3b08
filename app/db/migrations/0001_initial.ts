import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from "kysely";
import { isPostgres } from "../dialect";

type Table = CreateTableBuilder<string, never>;

/** Adds an auto-incrementing integer primary key that works on both engines. */
function withId(db: Kysely<any>, table: Table): Table {
  return isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);

export async function up(db: Kysely<any>): Promise<void> {
  const s = db.schema;

  await withId(db, s.createTable("users"))
    .addColumn("email", "text", notNull)
    .addColumn("password_hash", "text", notNull)
    .addColumn("nickname", "text", notNull)
    .addColumn("user_type", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("organization", "text")
    .addColumn("market_email_agree", "integer", zero)
    .addColumn("youtube_channel_id", "text")
    .addColumn("youtube_channel_updated_at", "text")
    .addColumn("language", "text", (c) => c.notNull().defaultTo("ko"))
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("users_email_uq").unique().on("users").column("email").execute();

  await s
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", notNull)
    .addColumn("expires_at", "text", notNull)
    .execute();
  await s.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await withId(db, s.createTable("taxonomy"))
    .addColumn("kind", "text", notNull)
    .addColumn("space", "text", notNull)
    .addColumn("code", "text", notNull)
    .addColumn("name_ko", "text", notNull)
    .addColumn("name_en", "text", notNull)
    .addColumn("parent_id", "integer")
    .addColumn("sort", "integer", zero)
    .execute();
  await s.createIndex("taxonomy_kind_space_uq").unique().on("taxonomy").columns(["kind", "space", "code"]).execute();

  await withId(db, s.createTable("contents"))
    .addColumn("code", "text", notNull)
    .addColumn("contents_type", "text", notNull)
    .addColumn("contents_type_sub", "integer")
    .addColumn("title_ko", "text", notNull)
    .addColumn("title_en", "text", notNull)
    .addColumn("description_ko", "text", notNull)
    .addColumn("description_en", "text", notNull)
    .addColumn("tags_ko", "text", notNull)
    .addColumn("tags_en", "text", notNull)
    .addColumn("category_id", "integer", (c) => c.references("taxonomy.id"))
    .addColumn("genre_id", "integer", (c) => c.references("taxonomy.id"))
    .addColumn("mood_id", "integer", (c) => c.references("taxonomy.id"))
    .addColumn("price_type", "text", notNull)
    .addColumn("price_krw", "integer", zero)
    .addColumn("price_usd", "integer", zero)
    .addColumn("duration_ms", "integer")
    .addColumn("bpm", "integer")
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("preview_path", "text")
    .addColumn("poster_path", "text")
    .addColumn("font_family", "text")
    .addColumn("file_path", "text")
    .addColumn("file_size", "integer")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("popularity", "integer", zero)
    .addColumn("sales_count", "integer", zero)
    .addColumn("released_at", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("contents_code_uq").unique().on("contents").column("code").execute();
  await s.createIndex("contents_type_pop_idx").on("contents").columns(["contents_type", "status", "popularity"]).execute();
  await s.createIndex("contents_type_rel_idx").on("contents").columns(["contents_type", "status", "released_at"]).execute();
  await s.createIndex("contents_category_idx").on("contents").columns(["category_id", "popularity"]).execute();
  await s.createIndex("contents_genre_idx").on("contents").columns(["genre_id", "popularity"]).execute();
  await s.createIndex("contents_mood_idx").on("contents").columns(["mood_id", "popularity"]).execute();
  await s.createIndex("contents_price_pop_idx").on("contents").columns(["price_type", "status", "popularity"]).execute();
  await s.createIndex("contents_price_rel_idx").on("contents").columns(["price_type", "status", "released_at"]).execute();

  await s
    .createTable("package_items")
    .addColumn("package_id", "integer", (c) => c.notNull().references("contents.id").onDelete("cascade"))
    .addColumn("content_id", "integer", (c) => c.notNull().references("contents.id").onDelete("cascade"))
    .addColumn("sort", "integer", zero)
    .addPrimaryKeyConstraint("package_items_pk", ["package_id", "content_id"])
    .execute();

  await s
    .createTable("theme_items")
    .addColumn("theme_id", "integer", (c) => c.notNull().references("taxonomy.id").onDelete("cascade"))
    .addColumn("content_id", "integer", (c) => c.notNull().references("contents.id").onDelete("cascade"))
    .addColumn("sort", "integer", zero)
    .addPrimaryKeyConstraint("theme_items_pk", ["theme_id", "content_id"])
    .execute();

  await withId(db, s.createTable("banners"))
    .addColumn("page", "text", notNull)
    .addColumn("kind", "text", notNull)
    .addColumn("title_ko", "text", notNull)
    .addColumn("title_en", "text", notNull)
    .addColumn("subtitle_ko", "text", notNull)
    .addColumn("subtitle_en", "text", notNull)
    .addColumn("image_path", "text", notNull)
    .addColumn("link", "text", notNull)
    .addColumn("sort", "integer", zero)
    .execute();

  await withId(db, s.createTable("keywords"))
    .addColumn("page", "text", notNull)
    .addColumn("kind", "text", notNull)
    .addColumn("keyword_ko", "text", notNull)
    .addColumn("keyword_en", "text", notNull)
    .addColumn("sort", "integer", zero)
    .execute();

  await withId(db, s.createTable("pass_prices"))
    .addColumn("contents_flag", "integer", notNull)
    .addColumn("contents_type_sub", "integer")
    .addColumn("contents_count", "integer", notNull)
    .addColumn("price_krw", "integer", notNull)
    .addColumn("price_usd", "integer", notNull)
    .addColumn("valid_days", "integer", notNull)
    .execute();

  await withId(db, s.createTable("licenses"))
    .addColumn("serial", "text", notNull)
    .addColumn("alias", "text")
    .addColumn("email", "text", notNull)
    .addColumn("owner_kind", "text", notNull)
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("hw_info", "text")
    .addColumn("pc_name", "text")
    .addColumn("status", "text", notNull)
    .addColumn("license_type", "text", notNull)
    .addColumn("valid_until", "text")
    .addColumn("product_version", "text", notNull)
    .addColumn("sort_order", "integer", zero)
    .addColumn("registered_at", "text")
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("licenses_serial_uq").unique().on("licenses").column("serial").execute();
  await s.createIndex("licenses_user_idx").on("licenses").columns(["user_id", "sort_order"]).execute();

  await withId(db, s.createTable("carts"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("ngt", "text")
    .addColumn("content_id", "integer", (c) => c.notNull().references("contents.id").onDelete("cascade"))
    .addColumn("level_flag", "integer", zero)
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("carts_user_idx").on("carts").columns(["user_id", "content_id"]).execute();
  await s.createIndex("carts_ngt_idx").on("carts").columns(["ngt", "content_id"]).execute();

  await withId(db, s.createTable("interests"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("content_id", "integer", (c) => c.notNull().references("contents.id").onDelete("cascade"))
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("interests_user_content_uq").unique().on("interests").columns(["user_id", "content_id"]).execute();

  await withId(db, s.createTable("orders"))
    .addColumn("order_no", "text", notNull)
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("license_id", "integer", (c) => c.references("licenses.id"))
    .addColumn("purchase_category", "text", notNull)
    .addColumn("status", "text", notNull)
    .addColumn("method", "text")
    .addColumn("currency", "text", notNull)
    .addColumn("amount", "integer", notNull)
    .addColumn("vat", "integer", notNull)
    .addColumn("total", "integer", notNull)
    .addColumn("cancel_quantity", "integer", zero)
    .addColumn("cancel_amount", "integer", zero)
    .addColumn("buyer_email", "text")
    .addColumn("message", "text")
    .addColumn("gateway", "text")
    .addColumn("gateway_payment_id", "text")
    .addColumn("vbank_due_at", "text")
    .addColumn("idempotency_key", "text")
    .addColumn("ptime", "text")
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("orders_no_uq").unique().on("orders").column("order_no").execute();
  await s.createIndex("orders_idem_uq").unique().on("orders").column("idempotency_key").execute();
  await s.createIndex("orders_user_idx").on("orders").columns(["user_id", "ptime"]).execute();

  await withId(db, s.createTable("order_items"))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("content_id", "integer", (c) => c.references("contents.id"))
    .addColumn("pass_price_id", "integer", (c) => c.references("pass_prices.id"))
    .addColumn("quantity", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("unit_price", "integer", notNull)
    .addColumn("vat", "integer", notNull)
    .addColumn("status", "text", notNull)
    .addColumn("first_downloaded_at", "text")
    .addColumn("expires_at", "text")
    .execute();
  await s.createIndex("order_items_order_idx").on("order_items").column("order_id").execute();

  await withId(db, s.createTable("passes"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("license_id", "integer", (c) => c.references("licenses.id"))
    .addColumn("order_item_id", "integer", (c) => c.references("order_items.id"))
    .addColumn("pass_price_id", "integer", (c) => c.notNull().references("pass_prices.id"))
    .addColumn("remaining", "integer", notNull)
    .addColumn("total", "integer", notNull)
    .addColumn("status", "text", notNull)
    .addColumn("purchased_at", "text", notNull)
    .addColumn("expires_at", "text", notNull)
    .execute();
  await s.createIndex("passes_user_idx").on("passes").column("user_id").execute();

  await withId(db, s.createTable("downloads"))
    .addColumn("content_id", "integer", (c) => c.notNull().references("contents.id"))
    .addColumn("license_id", "integer", (c) => c.references("licenses.id"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("order_item_id", "integer", (c) => c.references("order_items.id"))
    .addColumn("pass_id", "integer", (c) => c.references("passes.id"))
    .addColumn("kind", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("downloads_user_idx").on("downloads").columns(["user_id", "created_at"]).execute();
  await s.createIndex("downloads_license_idx").on("downloads").columns(["license_id", "created_at"]).execute();

  await withId(db, s.createTable("purchase_requests"))
    .addColumn("request_no", "text", notNull)
    .addColumn("owner_user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("license_id", "integer", (c) => c.notNull().references("licenses.id"))
    .addColumn("request_email", "text", notNull)
    .addColumn("message", "text", notNull)
    .addColumn("status", "text", notNull)
    .addColumn("currency", "text", notNull)
    .addColumn("total", "integer", notNull)
    .addColumn("order_id", "integer", (c) => c.references("orders.id"))
    .addColumn("expires_at", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();
  await s.createIndex("purchase_requests_no_uq").unique().on("purchase_requests").column("request_no").execute();
  await s.createIndex("purchase_requests_owner_idx").on("purchase_requests").columns(["owner_user_id", "created_at"]).execute();

  await withId(db, s.createTable("purchase_request_items"))
    .addColumn("request_id", "integer", (c) => c.notNull().references("purchase_requests.id").onDelete("cascade"))
    .addColumn("content_id", "integer", (c) => c.notNull().references("contents.id"))
    .addColumn("unit_price", "integer", notNull)
    .execute();

  await withId(db, s.createTable("support_tickets"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("category", "text", notNull)
    .addColumn("title", "text", notNull)
    .addColumn("description", "text", notNull)
    .addColumn("email", "text", notNull)
    .addColumn("attachment_path", "text")
    .addColumn("status", "text", notNull)
    .addColumn("answer", "text")
    .addColumn("created_at", "text", notNull)
    .execute();

  await withId(db, s.createTable("faqs"))
    .addColumn("category", "text", notNull)
    .addColumn("question_ko", "text", notNull)
    .addColumn("question_en", "text", notNull)
    .addColumn("answer_ko", "text", notNull)
    .addColumn("answer_en", "text", notNull)
    .addColumn("sort", "integer", zero)
    .execute();

  await withId(db, s.createTable("notices"))
    .addColumn("title_ko", "text", notNull)
    .addColumn("title_en", "text", notNull)
    .addColumn("body_ko", "text", notNull)
    .addColumn("body_en", "text", notNull)
    .addColumn("pinned", "integer", zero)
    .addColumn("published_at", "text", notNull)
    .execute();

  await withId(db, s.createTable("events"))
    .addColumn("title_ko", "text", notNull)
    .addColumn("title_en", "text", notNull)
    .addColumn("body_ko", "text", notNull)
    .addColumn("body_en", "text", notNull)
    .addColumn("image_path", "text")
    .addColumn("coupon_code", "text")
    .addColumn("discount_percent", "integer")
    .addColumn("test_only", "integer", zero)
    .addColumn("starts_at", "text", notNull)
    .addColumn("ends_at", "text", notNull)
    .execute();

  await withId(db, s.createTable("policies"))
    .addColumn("type", "text", notNull)
    .addColumn("language", "text", notNull)
    .addColumn("version", "text", notNull)
    .addColumn("effective_at", "text", notNull)
    .addColumn("body", "text", notNull)
    .execute();
  await s.createIndex("policies_type_lang_idx").on("policies").columns(["type", "language", "effective_at"]).execute();

  await s
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", notNull)
    .execute();

  await withId(db, s.createTable("mail_outbox"))
    .addColumn("to_address", "text", notNull)
    .addColumn("subject", "text", notNull)
    .addColumn("body_text", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "mail_outbox",
    "settings",
    "policies",
    "events",
    "notices",
    "faqs",
    "support_tickets",
    "purchase_request_items",
    "purchase_requests",
    "downloads",
    "passes",
    "order_items",
    "orders",
    "interests",
    "carts",
    "licenses",
    "pass_prices",
    "keywords",
    "banners",
    "theme_items",
    "package_items",
    "contents",
    "taxonomy",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
