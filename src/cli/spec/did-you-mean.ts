/**
 * Edit distance with adjacent transpositions counted once ("josn" is 1 from "json"): the
 * optimal-string-alignment variant of Damerau–Levenshtein, enough for typed flags and verbs.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest candidate to what was typed, or undefined when none is close: at most one edit for
 * names of up to four letters, two beyond, so "--js" finds "--json" but "--x" finds nothing.
 * Ties go to the candidate listed first.
 */
export function didYouMean(typed: string, candidates: readonly string[]): string | undefined {
  const limit = typed.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance =
      name.startsWith(typed) && typed.length >= 2 ? 1 : editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
