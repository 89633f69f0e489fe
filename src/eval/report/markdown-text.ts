/**
 * Untrusted text (case ids, whys, notes, model names) made inert in markdown: on one line, no
 * HTML, no table cell breaks, no code spans, links or emphasis that change what is shown.
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#!~])/g, '\\$1');
}

/** Text inside a code span, where backslashes do not escape: kept on one line, without backticks. */
export const codeText = (text: string): string => text.replace(/[`\r\n]+/g, ' ');

/** A URL inside `<…>`: the characters that would end it or break the line are percent-encoded. */
export const urlText = (url: string): string => url.replace(/[<>\s"`]/g, (ch) => encodeURIComponent(ch));
