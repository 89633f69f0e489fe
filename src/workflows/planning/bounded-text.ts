const CUT_MARK = ' [cut]';

/** A text within `max` characters, marked where it was cut; short texts are returned as they are. Pure. */
export function boundedText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - CUT_MARK.length))}${CUT_MARK}`;
}
