import { MIN_KNOWN_TEXT_CHARS, textHash } from '../../domain';

/**
 * Texts a model call may name by hash (textHash) instead of carrying, kept by this worker: what
 * its tool activities returned lately (known texts, see KnownText), and the system prompts and
 * tools it was sent (see contextText). Content-addressed, so runs share them. Bounded by
 * characters: the oldest go first. A miss is never an error: the call then asks its run
 * (resolve-conversation.ts).
 */
export class KnownTexts {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  /** Keeps a text; short ones are sent whole and never named, so not kept. */
  remember(text: string): void {
    if (text.length < MIN_KNOWN_TEXT_CHARS || text.length > this.maxChars) return;
    const hash = textHash(text);
    if (this.texts.delete(hash)) this.chars -= text.length;
    this.texts.set(hash, text);
    this.chars += text.length;
    for (const [oldest, kept] of this.texts) {
      if (this.chars <= this.maxChars) break;
      this.texts.delete(oldest);
      this.chars -= kept.length;
    }
  }

  get(hash: string): string | undefined {
    return this.texts.get(hash);
  }

  /** Characters kept now. */
  get size(): number {
    return this.chars;
  }
}
