/** Values read out of a task's text for the offline model's arguments. Pure. */

import { words } from './tool-relevance';

/** A value the text gives right after a word of the slot's name: `order 1234`, `city: "Paris"`. */
export function valueAfterName(text: string, name: string): string | undefined {
  for (const word of words(name)) {
    // The name matches in any case; the value after it is case-sensitive (a capitalised phrase).
    for (const key of text.matchAll(new RegExp(`\\b${word}s?\\b\\s*(?:[:=]|is\\b|of\\b|#)?\\s*`, 'gi'))) {
      const rest = text.slice(key.index + key[0].length);
      const m = /^(?:"([^"]+)"|'([^']+)'|([A-Z][\p{L}\d-]*(?: [A-Z][\p{L}\d-]*)*|[\w-]*\d[\w.-]*))/u.exec(rest);
      const value = m?.[1] ?? m?.[2] ?? m?.[3];
      if (value) return value.replace(/[.,;]$/, '');
    }
  }
  return undefined;
}

/** Whether the text names `value` as a whole word, in any case. */
export function mentions(text: string, value: string): boolean {
  return new RegExp(`\\b${escapeRegExp(value)}\\b`, 'i').test(text);
}

export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Quoted parts of a text, in order. */
export function quotedStrings(text: string): string[] {
  return [...text.matchAll(/"([^"]+)"|“([^”]+)”|'([^']{2,})'/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** A sentence's ordinary first words, never taken for a name. */
const OPENERS =
  /^(I|Call|Use|What|Which|Who|How|When|Where|Why|Please|Compare|Get|Find|Show|Tell|Look|Check|Ask|Then|And|The|Is|Are|Can|Could|Would|Weather)$/;

/**
 * Runs of capitalised words, as names of places, people or things: those inside a sentence
 * first, then those that open one ("Paris is nice", or an answer that is just "Paris").
 */
export function capitalisedPhrases(text: string): string[] {
  const inside: string[] = [];
  const opening: string[] = [];
  for (const m of text.matchAll(/[A-Z][\p{L}\d'-]*(?:[ \t]+[A-Z][\p{L}\d'-]*)*/gu)) {
    const atStart = /(^|[.!?:\n]\s*)$/.test(text.slice(0, m.index));
    const parts = m[0].split(/[ \t]+/).map((w) => w.replace(/'s$/, ''));
    while (parts.length > 0 && OPENERS.test(parts[0]!)) parts.shift();
    const phrase = parts.join(' ');
    if (phrase) (atStart && phrase === m[0].replace(/'s$/, '') ? opening : inside).push(phrase);
  }
  return [...inside, ...opening];
}
