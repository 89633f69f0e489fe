/** Reading a confidence the model wrote (`Confidence: 0.8`, `Confidence: 80%`). Pure (workflow sandbox side). */

/** The text without its confidence lines, and the last confidence read (0–1), if any could be. */
export function readConfidence(text: string, label = 'Confidence'): { text: string; confidence?: number } {
  const words = label
    .trim()
    .split(/[\s_]+/)
    .join('[ _]?');
  const line = new RegExp(`^[\\s*_#>]*${words}[*_]*\\s*[:：][*_\\s]*(\\d+(?:\\.\\d+)?)\\s*(%?)[*_\\s.]*$`, 'iu');
  let confidence: number | undefined;
  const kept = text.split('\n').filter((l) => {
    const match = line.exec(l);
    if (!match) return true;
    confidence = asConfidence(Number(match[1]), match[2] === '%') ?? confidence;
    return false;
  });
  return { text: kept.join('\n').trim(), ...(confidence !== undefined ? { confidence } : {}) };
}

/** A number from 0 to 1, a percentage (`80%`, or `80` since a confidence above 1 can only be one); else undefined. */
export function asConfidence(value: unknown, percent = false): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  const scaled = percent || value > 1 ? value / 100 : value;
  return scaled <= 1 ? Math.round(scaled * 1000) / 1000 : undefined;
}
