/** The fuzzer's samples for this console section: a form body per action route id, a value per dynamic segment. */
export const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {
  "admin-inquiries-detail": [
    { answer: "Thank you for waiting: the item is in your downloads now.", reason: "" },
    { answer: ["", "<script>alert(1)</script>"], reason: "x".repeat(600) },
  ],
  "admin-publishing-faq": [
    {
      intent: "create",
      category: "download",
      questionKo: "맥에서도 쓸 수 있나요?",
      answerKo: "네.",
      questionEn: "Does it run on a Mac?",
      answerEn: "Yes.",
      sort: "",
    },
    {
      intent: "create",
      category: "'; drop table faqs; --",
      questionKo: "\u0000",
      answerKo: "",
      questionEn: "x".repeat(400),
      answerEn: "",
      sort: "-1e9",
      hidden: "yes",
    },
  ],
  "admin-publishing-faq-edit": [
    {
      intent: "update",
      category: "refund",
      questionKo: "환불할 수 있나요?",
      answerKo: "7일 안에 가능합니다.",
      questionEn: "Can I get a refund?",
      answerEn: "Within 7 days.",
      sort: "3",
    },
    { intent: "delete" },
    { intent: "hide" },
    { intent: ["show", "delete"], confirm: "maybe" },
  ],
  "admin-publishing-guide": [
    Object.fromEntries(
      [1, 2, 3, 4, 5, 6].flatMap((n) => [
        [`titleKo${n}`, `${n}단계`],
        [`titleEn${n}`, `Step ${n}`],
        [`textKo${n}`, ""],
        [`textEn${n}`, ""],
      ]),
    ),
    { titleKo1: "", titleEn9: "x", textKo3: "y".repeat(5000) },
  ],
};
export const PARAMS: Record<string, Record<string, string>> = {
  "admin-inquiries-detail": { id: "1" },
  "admin-inquiries-attachment": { id: "1" },
  "admin-publishing-faq-edit": { id: "1" },
};
