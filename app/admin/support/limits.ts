/** The support forms' lengths: the schemas (forms.server.ts) and the pages' maxLength both read them. */
export const ANSWER_MAX = 5000;
export const REASON_MAX = 500;
export const FAQ_QUESTION_MAX = 300;
export const FAQ_ANSWER_MAX = 4000;
export const GUIDE_TITLE_MAX = 200;
export const GUIDE_TEXT_MAX = 1000;
