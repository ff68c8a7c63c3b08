import type { Kysely } from "kysely";

/**
 * What the operator console's support section edits (app/admin/support/): FAQ entries can be hidden from the
 * storefront without being deleted (`faqs.hidden`), and the six-step user guide on /support moves from the locale
 * files into `guide_steps` (one row per step, its ko/en title and optional text), seeded with the text the page
 * showed until now so the page looks the same.
 */
export const GUIDE_SEED: { step: number; title_ko: string; title_en: string }[] = [
  {
    step: 1,
    title_ko: "영상 편집 프로그램 정품을 설치하고 라이선스를 등록합니다.",
    title_en: "Install the full version of the video editor and register your licence.",
  },
  { step: 2, title_ko: "마켓 계정을 만들거나 로그인합니다.", title_en: "Create a market account (or sign in)." },
  { step: 3, title_ko: "카테고리나 검색으로 콘텐츠를 찾고 미리 봅니다.", title_en: "Find content by category or search, and preview it." },
  { step: 4, title_ko: "유료 콘텐츠를 장바구니에 담거나 이용권을 구매합니다.", title_en: "Add paid items to the cart, or buy a pass." },
  {
    step: 5,
    title_ko: "카드, 휴대폰, 카카오페이, 가상계좌, 페이팔로 결제합니다.",
    title_en: "Pay by card, mobile phone, Kakao Pay, virtual account or PayPal.",
  },
  {
    step: 6,
    title_ko: "90일 안에 편집 프로그램에서 콘텐츠를 다운로드합니다.",
    title_en: "Download your content in the editor within 90 days.",
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("faqs")
    .addColumn("hidden", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("guide_steps")
    .addColumn("step", "integer", (c) => c.primaryKey())
    .addColumn("title_ko", "text", (c) => c.notNull())
    .addColumn("title_en", "text", (c) => c.notNull())
    .addColumn("text_ko", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("text_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "text")
    .execute();
  await db
    .insertInto("guide_steps")
    .values(GUIDE_SEED.map((s) => ({ ...s, text_ko: "", text_en: "", updated_at: null })))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("guide_steps").ifExists().execute();
  await db.schema.alterTable("faqs").dropColumn("hidden").execute();
}
