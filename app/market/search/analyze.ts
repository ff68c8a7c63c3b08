import { getChoseong } from "es-hangul";
import { stemmer } from "stemmer";

/**
 * Text analysis shared by the index and the queries of both engines (so SQLite FTS5 and PostgreSQL see the
 * same tokens):
 * - Latin words: the lower-case word and its Porter stem (pianos -> piano), so stems and prefixes both match.
 * - Hangul runs: every syllable and every pair of neighbouring syllables (피아노곡 -> 피 아 노 곡 피아 아노 노곡),
 *   so a word is found inside longer words and compounds (잔잔한피아노), with or without spaces.
 * - Initial consonants (choseong) of Hangul runs as pairs (피아노 -> ㅍㅇ ㅇㄴ), for queries like ㅍㅇㄴ.
 */
const HANGUL = /[\uac00-\ud7a3]+/g;
const JAMO_CONSONANTS = /^[\u3131-\u314e]+$/;
const WORD = /[\p{L}\p{N}]+/gu;

/** Particles that attach to Korean nouns; a query word ending in one is also tried without it. */
const PARTICLES = [
  "에서",
  "으로",
  "에게",
  "까지",
  "부터",
  "처럼",
  "보다",
  "을",
  "를",
  "이",
  "가",
  "은",
  "는",
  "의",
  "에",
  "로",
  "와",
  "과",
  "도",
  "만",
];

/** NFKC and lower case, leaving compatibility jamo (ㅍㅇㄴ) alone: NFKC would turn them into conjoining jamo. */
export const normalize = (text: string) => text.replace(/[^\u3131-\u318e]+/g, (run) => run.normalize("NFKC")).toLowerCase();

function pairs(chars: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/** The index tokens of a text (duplicates removed, order kept). */
export function indexTokens(text: string): string[] {
  const out = new Set<string>();
  for (const word of normalize(text).match(WORD) ?? []) {
    const latin = word.replace(HANGUL, " ").trim();
    for (const part of latin.split(/\s+/).filter(Boolean)) {
      out.add(part);
      if (/[a-z]/.test(part)) out.add(stemmer(part));
    }
    for (const run of word.match(HANGUL) ?? []) {
      const syllables = [...run];
      for (const s of syllables) out.add(s);
      for (const p of pairs(syllables)) out.add(p);
      const cho = [...getChoseong(run)];
      for (const p of pairs(cho)) out.add(p);
    }
  }
  return [...out];
}

/** A query token; `prefix` matches any indexed token that starts with it. */
export interface QueryToken {
  text: string;
  prefix: boolean;
}
/** All tokens of one alternative must match. */
export type Alternative = QueryToken[];
/** One query word: any of its alternatives may match. */
export type Clause = Alternative[];

function hangulAlternative(run: string): Alternative {
  const syllables = [...run];
  if (syllables.length === 1) return [{ text: run, prefix: false }];
  return pairs(syllables).map((text) => ({ text, prefix: false }));
}

/**
 * A search query as clauses (all must match). Latin words match their stem or, from three letters, as a
 * prefix (pian -> piano). Korean words match by syllable pairs, also without a trailing particle (음악을 ->
 * 음악). A word of initial consonants only (ㅍㅇㄴ) matches by consonant pairs.
 */
export function parseQuery(query: string): Clause[] {
  const clauses: Clause[] = [];
  for (const word of normalize(query).match(WORD) ?? []) {
    if (JAMO_CONSONANTS.test(word)) {
      if (word.length >= 2) clauses.push([pairs([...word]).map((text) => ({ text, prefix: false }))]);
      continue;
    }
    const latin = word.replace(HANGUL, " ").trim().split(/\s+/).filter(Boolean);
    for (const part of latin) {
      const stem = stemmer(part);
      // The word as a prefix covers the word itself: `icon | icon*` would only read the index twice.
      const alternatives: Clause = part.length >= 3 && stem === part ? [] : [[{ text: stem, prefix: false }]];
      if (part.length >= 3) alternatives.push([{ text: part, prefix: true }]);
      else if (part !== stem) alternatives.push([{ text: part, prefix: false }]);
      clauses.push(alternatives);
    }
    for (const run of word.match(HANGUL) ?? []) {
      const alternatives: Clause = [hangulAlternative(run)];
      const particle = PARTICLES.find((p) => run.length > p.length && run.endsWith(p));
      if (particle) alternatives.push(hangulAlternative(run.slice(0, -particle.length)));
      clauses.push(alternatives);
    }
  }
  return clauses;
}

/** Latin query words of five letters or more: candidates for typo correction. */
export function typoCandidates(query: string): string[] {
  return (normalize(query).match(/[a-z]{5,}/g) ?? []).filter((w, i, all) => all.indexOf(w) === i);
}

/** Levenshtein distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max = 1): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = cur[0];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** SQLite FTS5 MATCH expression for the clauses. */
export function toFts5(clauses: Clause[]): string {
  const token = (t: QueryToken) => `"${t.text.replaceAll('"', '""')}"${t.prefix ? "*" : ""}`;
  return clauses.map((c) => `(${c.map((alt) => `(${alt.map(token).join(" AND ")})`).join(" OR ")})`).join(" AND ");
}

/** PostgreSQL tsquery text for the clauses, read by the tsquery input function (lexemes taken literally, no parser). */
export function toTsquery(clauses: Clause[]): string {
  const token = (t: QueryToken) => `'${t.text.replaceAll("'", "''").replaceAll("\\", "\\\\")}'${t.prefix ? ":*" : ""}`;
  return clauses.map((c) => `(${c.map((alt) => `(${alt.map(token).join(" & ")})`).join(" | ")})`).join(" & ");
}
