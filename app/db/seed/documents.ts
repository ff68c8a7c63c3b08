/** Demo documents: policies, FAQ and notices, in Korean and English. */

export const COMPANY = {
  name_ko: "주식회사 비디오에셋",
  name_en: "VideoAsset Co., Ltd.",
};

export const POLICIES: Record<"terms" | "privacy" | "paid", { ko: string; en: string }> = {
  terms: {
    ko: `제1조 (목적)
이 약관은 주식회사 비디오에셋(이하 "회사")이 운영하는 에셋 마켓(이하 "마켓")에서 제공하는 영상, 아이콘, 오디오, 글꼴, 패키지 콘텐츠(이하 "콘텐츠")의 이용 조건과 절차를 정합니다.

제2조 (이용 자격)
마켓의 콘텐츠는 회사의 영상 편집 프로그램 정품(전체 버전) 안에서만 사용할 수 있습니다. 무료 콘텐츠는 정품 라이선스와 마켓 계정이 있어야 하며, 혜택 콘텐츠는 유료 구매 이력이 있어야 합니다.

제3조 (회원)
회원은 개인 회원과 기업(B2BG) 대표 계정으로 나뉩니다. 기업 계정은 단건 구매만 할 수 있으며 이용권을 구매할 수 없습니다.

제4조 (콘텐츠 이용 기간)
구매한 콘텐츠와 이용권은 결제일로부터 90일 동안 이용할 수 있으며, 다운로드 여부와 관계없이 기간이 지나면 만료됩니다.

제5조 (장바구니)
장바구니에는 최대 100개의 콘텐츠를 담을 수 있으며 30일 동안 보관됩니다.

제6조 (회원 탈퇴)
회원은 언제든지 마이페이지에서 탈퇴할 수 있습니다. 탈퇴하면 마켓의 모든 데이터가 삭제되며, 통합 회사 계정은 유지됩니다.`,
    en: `Article 1 (Purpose)
These terms set out the conditions and procedures for using the video, icon, audio, font and package content (the "Content") offered in the asset market (the "Market") operated by VideoAsset Co., Ltd. (the "Company").

Article 2 (Eligibility)
Content from the Market can only be used inside a licensed full version of the Company's video editor. Free content requires a product licence and a Market account; benefit content requires a paid purchase.

Article 3 (Members)
Members are individual members and business (B2BG) representative accounts. Business accounts can buy single items only and cannot buy passes.

Article 4 (Period of use)
Purchased content and passes can be used for 90 days from payment and expire after that period whether or not they were downloaded.

Article 5 (Cart)
A cart holds up to 100 items, kept for 30 days.

Article 6 (Leaving the Market)
Members can cancel their membership at any time from My page. Cancelling removes all Market data; the integrated company account remains.`,
  },
  privacy: {
    ko: `1. 수집하는 개인정보
회사는 회원 가입과 구매를 위해 이메일 주소, 닉네임, 소속(기업 회원), 결제 기록, 라이선스 정보, 유튜브 채널 ID(선택)를 수집합니다.

2. 이용 목적
콘텐츠 판매와 다운로드 제공, 결제와 환불 처리, 고객 문의 응대, 저작권 보호(유튜브 채널 등록 시), 마케팅 정보 발송(동의한 경우)에 이용합니다.

3. 보유 기간
회원 탈퇴 시 지체 없이 파기합니다. 다만 전자상거래법에 따라 계약·결제 기록은 5년, 소비자 불만 처리 기록은 3년 보관합니다.

4. 개인정보 보호책임자
개인정보 보호책임자: 김보안 (privacy@videoasset.example)`,
    en: `1. What we collect
To create accounts and process purchases we collect your e-mail address, nickname, organization (business members), payment records, licence information and, optionally, your YouTube channel ID.

2. Why we use it
To sell and deliver content, to process payments and refunds, to answer inquiries, to protect copyright (when a YouTube channel is registered) and to send marketing mail (only with your consent).

3. How long we keep it
We delete it without delay when you leave the Market, except contract and payment records (kept 5 years) and consumer complaint records (kept 3 years) as the E-Commerce Act requires.

4. Privacy officer
Privacy officer: Boan Kim (privacy@videoasset.example)`,
  },
  paid: {
    ko: `1. 결제 수단
신용카드, 휴대폰, 카카오페이, 가상계좌, 페이팔로 결제할 수 있습니다. 모든 가격에는 부가가치세 10%가 더해집니다.

2. 가상계좌
가상계좌 입금 기한은 주문 다음 날 23:59:59이며, 기한 안에 입금하지 않으면 주문이 자동으로 취소됩니다.

3. 청약 철회와 환불
결제일로부터 7일 이내이고 콘텐츠를 다운로드하지 않은 경우에만 취소·환불할 수 있습니다. 혜택 콘텐츠를 다운로드하면 취소할 수 없습니다. 가상계좌 환불 시 10%가 차감되며, 휴대폰 결제는 부분 환불이 되지 않습니다.

4. 이용권
이용권은 개인 회원만 구매할 수 있으며, 다운로드할 때마다 남은 횟수가 1 차감됩니다. 이용 기간은 결제일로부터 90일입니다.`,
    en: `1. Payment methods
You can pay by credit card, mobile phone, Kakao Pay, virtual account or PayPal. VAT of 10% is added to all prices.

2. Virtual account
A virtual-account deposit is due by 23:59:59 on the day after the order; orders not paid by then are cancelled automatically.

3. Withdrawal and refunds
An order can be cancelled and refunded only within 7 days of payment and only if the content has not been downloaded. Downloading benefit content blocks cancellation. Virtual-account refunds deduct 10%; mobile phone payments cannot be partially refunded.

4. Passes
Only individual members can buy passes; each download deducts 1 from the remaining count. Passes can be used for 90 days from payment.`,
  },
};

export const FAQ: readonly (readonly [category: string, qKo: string, qEn: string, aKo: string, aEn: string])[] = [
  [
    "purchase",
    "구매한 콘텐츠는 어디에서 사용하나요?",
    "Where can I use the content I bought?",
    "구매한 콘텐츠는 영상 편집 프로그램 정품 안에서만 사용할 수 있습니다.",
    "Purchased content can be used only inside a licensed copy of the video editor.",
  ],
  [
    "purchase",
    "기업 계정으로 이용권을 살 수 있나요?",
    "Can a business account buy passes?",
    "기업 계정은 단건 구매만 할 수 있습니다.",
    "Business accounts can buy single items only.",
  ],
  [
    "payment",
    "어떤 결제 수단을 쓸 수 있나요?",
    "Which payment methods can I use?",
    "신용카드, 휴대폰, 카카오페이, 가상계좌, 페이팔을 쓸 수 있습니다.",
    "Credit card, mobile phone, Kakao Pay, virtual account and PayPal.",
  ],
  [
    "payment",
    "가상계좌 입금 기한은 언제인가요?",
    "When is a virtual-account deposit due?",
    "주문 다음 날 23:59:59까지 입금해야 합니다.",
    "By 23:59:59 on the day after the order.",
  ],
  [
    "refund",
    "환불받을 수 있나요?",
    "Can I get a refund?",
    "결제 후 7일 이내이고 다운로드하지 않았다면 환불받을 수 있습니다.",
    "Yes, within 7 days of payment if you have not downloaded the content.",
  ],
  [
    "refund",
    "가상계좌 환불 시 수수료가 있나요?",
    "Is there a fee for virtual-account refunds?",
    "가상계좌 환불 시 결제 금액의 10%가 차감됩니다.",
    "Virtual-account refunds deduct 10% of the amount paid.",
  ],
  [
    "download",
    "맥에서도 다운로드할 수 있나요?",
    "Can I download on a Mac?",
    "다운로드는 윈도우에서만 가능합니다.",
    "Downloads are available on Windows only.",
  ],
  [
    "download",
    "이용권으로 다운로드하면 어떻게 되나요?",
    "What happens when I download with a pass?",
    "다운로드할 때마다 남은 횟수가 1 차감됩니다.",
    "Each download deducts 1 from the remaining count.",
  ],
  [
    "license",
    "라이선스 별명은 어떻게 바꾸나요?",
    "How do I rename a licence?",
    "마이페이지 > 라이선스 관리에서 별명을 바꾸고 순서를 정할 수 있습니다.",
    "In My page > Licences you can rename licences and set their order.",
  ],
  [
    "account",
    "유튜브 채널은 왜 등록하나요?",
    "Why register a YouTube channel?",
    "등록한 채널은 오디오 콘텐츠의 저작권 보호 대상이 됩니다.",
    "A registered channel is protected against copyright claims on audio content.",
  ],
  [
    "account",
    "유튜브 채널을 바꿀 수 있나요?",
    "Can I change my YouTube channel?",
    "등록하거나 수정한 뒤 90일 동안은 바꿀 수 없습니다.",
    "Not for 90 days after registering or editing it.",
  ],
  [
    "account",
    "탈퇴하면 어떻게 되나요?",
    "What happens when I leave?",
    "마켓의 모든 데이터가 삭제되고 통합 회사 계정은 유지됩니다.",
    "All Market data is removed; the integrated company account remains.",
  ],
];

export const NOTICE_TITLES: readonly (readonly [string, string])[] = [
  ["에셋 마켓 정기 점검 안내", "Scheduled maintenance of the asset market"],
  ["새 오디오 콘텐츠 추가 안내", "New audio content added"],
  ["개인정보 처리방침 개정 안내", "Changes to the privacy policy"],
  ["이용권 가격 조정 안내", "Pass price update"],
  ["AI 배경음악 출시", "AI background music is here"],
];
