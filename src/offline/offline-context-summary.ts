import { clip, OFFLINE_MARK } from './offline-summary';

/** How much of one line of the dropped turns the offline summary quotes. */
const LINE_CHARS = 160;

/**
 * The offline model's summary of dropped turns (a context-summary prompt, domain/model/context-summary.ts):
 * it cannot condense, so it quotes the earlier summary and each line of the turns briefly, within
 * the length the prompt asks for. Deterministic.
 */
export function offlineContextSummary(prompt: string): string {
  const limit = Number(/Write the summary in under (\d+) characters\.$/.exec(prompt)?.[1] ?? 1_000);
  const previous = /Summary of the turns before these:\n([\s\S]*?)\n\nTurns to summarise/.exec(prompt)?.[1];
  const turns = /Turns to summarise \(\d+ messages\):\n([\s\S]*)\n\nWrite the summary in under/.exec(prompt)?.[1] ?? '';
  const lines = [
    `${OFFLINE_MARK} Earlier turns, quoted briefly:`,
    ...(previous ? [clip(previous.replace(/\s+/g, ' '), LINE_CHARS * 2)] : []),
    ...turns.split('\n').map((line) => `- ${clip(line.replace(/\s+/g, ' ').trim(), LINE_CHARS)}`),
  ];
  return clip(lines.join('\n'), limit);
}
