import { z } from 'zod';
import {
  MAX_SCORE_COMMENT_CHARS,
  ScoreName,
  ScoreSource,
  type AddRunScoreResult,
} from '../../../domain/evaluation/run-scores';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { PERSON_OPTIONS, text } from '../../spec/flags';
import { connect } from '../../setup/runtime';
import { writeSafe } from '../../render/terminal-safe';
import { UsageError } from '../../spec/usage-error';
import { actingPerson } from '../people-in-the-loop/decide-call';

/** `--value`: a finite number, or true / false (stored as 1 / 0). */
const ScoreValueText = z.string().transform((text, ctx) => {
  if (text === 'true' || text === 'false') return text === 'true';
  const n = text.trim() === '' ? Number.NaN : Number(text);
  if (Number.isFinite(n)) return n;
  ctx.addIssue({ code: 'custom', message: `--value takes a number or true/false, not "${text}"` });
  return z.NEVER;
});

/** The options of `score`, read once; each problem is a usage error naming its flag. */
const ScoreOptions = z.object({
  name: z.string({ error: '--name N is required: the score name, e.g. accepted' }).pipe(ScoreName),
  value: z.string({ error: '--value V is required: a number, or true/false' }).pipe(ScoreValueText),
  comment: z
    .string()
    .max(MAX_SCORE_COMMENT_CHARS, `--comment takes up to ${MAX_SCORE_COMMENT_CHARS} characters`)
    .optional(),
  source: ScoreSource.default('cli'),
  as: z.string().optional(),
  roles: z.string().optional(),
});
type ScoreOptions = z.output<typeof ScoreOptions>;

function scoreOptions(line: CommandLine): ScoreOptions {
  const parsed = ScoreOptions.safeParse({
    name: line.text('name'),
    value: line.text('value'),
    comment: line.text('comment'),
    source: line.text('source'),
    as: line.text('as'),
    roles: line.text('roles'),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = String(issue.path[0] ?? '');
  throw new UsageError(issue.message.startsWith('--') ? issue.message : `--${flag}: ${issue.message}`);
}

/** "accepted = 1 by alice at 2026-…Z (source cli; replaced 0)". */
function scoreLine(workflowId: string, stored: AddRunScoreResult): string {
  const { score, replaced } = stored;
  const notes = [
    score.source ? `source ${score.source}` : undefined,
    replaced ? `replaced ${replaced.value} of ${replaced.at}` : undefined,
  ].filter(Boolean);
  const comment = score.comment !== undefined ? `\n  ${score.comment}` : '';
  return `Scored ${workflowId}: ${score.name} = ${score.value} by ${score.by} at ${score.at}${notes.length ? ` (${notes.join('; ')})` : ''}; ${stored.count} of at most ${stored.limit} scores.${comment}\n`;
}

/** `score <run-id> --name N --value V [--comment C] [--source S] [--as ID]`: attaches an outcome score to a run, open or ended. */
export async function scoreRun(workflowId: string, options: ScoreOptions): Promise<void> {
  const { agents, config } = await connect();
  try {
    const stored = await agents.score(workflowId, {
      name: options.name,
      value: options.value,
      ...(options.comment !== undefined ? { comment: options.comment } : {}),
      source: options.source,
      by: actingPerson(config, options),
    });
    writeSafe(process.stdout, scoreLine(workflowId, stored));
  } finally {
    await agents.client.connection.close();
  }
}

export const SCORE_COMMAND: CommandSpec = {
  name: 'score',
  group: 'Evaluation',
  summary: 'attach an outcome score to a run, open or ended',
  description: 'Attach an outcome score to a run, open or ended, by --as; it prints the score as stored.',
  examples: ['thoughtline score agent-1 --name accepted --value true --comment "shipped"'],
  args: [{ name: '<run-id>', needs: 'a run id (the agent-… id run printed)' }],
  options: {
    name: text('N', 'the score name, e.g. accepted (required)'),
    value: text('V', 'a number, or true/false (required)'),
    comment: text('C', 'a comment kept with it'),
    source: text('S', 'where it comes from', { default: 'cli' }),
    ...PERSON_OPTIONS,
  },
  run: async (line) => {
    await scoreRun(line.args[0]!, scoreOptions(line));
    return 0;
  },
};
