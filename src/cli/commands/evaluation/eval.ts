import type { CommandSpec } from '../../spec/command-line';
import { EVAL_OPTIONS, readEvalOptions } from './eval-options';
import { evaluate } from './evaluate';
import { EVAL_REPORT_OPTIONS, EVAL_REPORT_USAGE, evalReport, withoutReportOptions } from './eval-report';

export const EVAL_COMMAND: CommandSpec = {
  name: 'eval',
  group: 'Evaluation',
  summary: 'run a dataset as agent runs; reports and a regression gate',
  description:
    'Run every case of a dataset (.jsonl: a case a line; .yaml: a list) as agent runs under one durable evaluationWorkflow, print progress and the success criteria, and write result.json, report.md and report.html (docs/evaluation.md). Exit 1 when the gate finds a regression or the evaluation was cancelled; 130 on Ctrl-C (it goes on: resume with --resume). eval report: a live experiment’s runs per variant (success, late scores, cost, tokens, latency, 95% intervals; docs/evaluation.md).',
  examples: [
    'thoughtline eval evals/loop.jsonl --tools eval/loop-tools.cjs --baseline eval/baselines/loop-offline.json',
    'thoughtline eval support.jsonl --model claude-sonnet-4-6 --model claude-haiku-4-5 --repeat 5 --budget-usd 5',
    'thoughtline eval report --experiment support-tone --since 7d',
  ],
  usage: ['eval <dataset> [options]', EVAL_REPORT_USAGE],
  args: [{ name: '<dataset>', needs: 'a dataset, e.g. thoughtline eval evals/loop.jsonl' }],
  options: { ...EVAL_OPTIONS, ...EVAL_REPORT_OPTIONS },
  run: async (l) => (l.args[0] === 'report' ? evalReport(l) : evaluate(readEvalOptions(withoutReportOptions(l)))),
};
