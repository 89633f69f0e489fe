import { describe, expect, it } from 'vitest';
import { COMMANDS, helpOf, topHelp } from '../../src/cli/commands';
import { criteriaText, renderHtmlReport, renderMarkdownReport } from '../../src/eval/report';
import { summariseEvaluation } from '../../src/domain/evaluation/stats';
import { realisticEvaluation } from '../eval/report-fixture';

/** The project's own design notes ("seed 001 §6") mean nothing to a person reading the CLI or a report. */
const INTERNAL = /\bseed 0\d\d\b/i;

describe('texts a person reads name no internal design note', () => {
  it("the help, each command's part of it, and an evaluation's reports", () => {
    const result = realisticEvaluation();
    const summary = summariseEvaluation(result);
    const texts = [
      topHelp(),
      ...COMMANDS.map((c) => helpOf(c.name)),
      criteriaText(summary),
      renderMarkdownReport({ result, summary }),
      renderHtmlReport({ result, summary }),
    ];
    expect(texts.filter((t) => INTERNAL.test(t)).map((t) => t.match(INTERNAL)![0])).toEqual([]);
  });
});
