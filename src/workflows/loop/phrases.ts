/** The first phrase that occurs in `text`, case-insensitively; undefined when none does. */
export function findPhrase(text: string, phrases: readonly string[]): string | undefined {
  const haystack = text.toLowerCase();
  return phrases.find((p) => haystack.includes(p.toLowerCase()));
}
