/**
 * Links inside an operator's text (events; issue 26.8): `[words](/path)` becomes a link to a page of this store. Only
 * paths on this site are links (one leading "/", not "//"), so a body cannot send a visitor elsewhere or run a
 * script; anything else stays as it was typed.
 */
export type BodyPart = { text: string; href?: string };

const LINK = /\[([^\]\n]+)\]\((\/(?!\/)[^\s()]*)\)/g;

export function bodyParts(line: string): BodyPart[] {
  const parts: BodyPart[] = [];
  let at = 0;
  for (const m of line.matchAll(LINK)) {
    const index = m.index ?? 0;
    if (index > at) parts.push({ text: line.slice(at, index) });
    parts.push({ text: m[1], href: m[2] });
    at = index + m[0].length;
  }
  if (at < line.length) parts.push({ text: line.slice(at) });
  return parts;
}

/** The text as read aloud or quoted in a description: the links' words without their paths. */
export const bodyText = (body: string) => body.replace(LINK, "$1");
