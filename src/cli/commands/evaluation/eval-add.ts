import path from 'node:path';
import { z } from 'zod';
import { importAsCase, runAsCase } from '../../../audit';
import { isImportRunId } from '../../../domain/store/import-run-id';
import type { ChainStore } from '../../../store/chain-store';
import { hitsInLens } from '../../../client/store/hits-in-lens';
import { searchStore } from '../../../client/store/search-store';
import { identityOfChain, lensOfPolicy } from '../../../client/runs/run-lens';
import { MAX_SEARCH_PAGE, RunSearch } from '../../../domain/store';
import { DatasetError } from '../../../eval/dataset';
import {
  appendCases,
  caseIdOfRun,
  caseIdsOf,
  CaseFromRunError,
  CaseFromRunRefusal,
  type CaseFromRun,
} from '../../../eval/from-run';
import type { LoadedPolicy } from '../../../governance/load-visibility-policy';
import { counted } from '../../../domain/text/counted';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { text, texts } from '../../spec/flags';
import { POLICY_OPTION, readPolicyOption } from '../../spec/policy-option';
import { UsageError } from '../../spec/usage-error';
import { writeSafe } from '../../render/terminal-safe';
import { openReadStore } from '../../reading/read-store';
import { connect, log } from '../../setup/runtime';

/** Runs one `eval add` takes by `--from-run`. */
const MAX_FROM_RUN = 100;

/** The options of `eval add`, read once; each problem is a usage error naming its flag. */
const EvalAddOptions = z
  .object({
    dataset: z.string().min(1),
    fromRun: z
      .array(z.string().min(1, '--from-run takes a run id').max(1_000, '--from-run takes a run id'))
      .max(MAX_FROM_RUN, `--from-run: at most ${MAX_FROM_RUN} runs at once`)
      .refine((ids) => new Set(ids).size === ids.length, '--from-run names a run twice'),
    fromSearch: z.string().min(1, '--from-search takes words to find').max(200).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_SEARCH_PAGE).optional(),
    tenant: z.string().min(1).optional(),
  })
  .refine((o) => o.fromRun.length > 0 || o.fromSearch !== undefined, {
    message: 'give --from-run ID (repeatable) or --from-search QUERY: the runs that become cases',
  })
  .refine((o) => o.fromSearch !== undefined || (o.limit === undefined && o.tenant === undefined), {
    message: '--limit and --tenant go with --from-search',
  });
type EvalAddOptions = z.output<typeof EvalAddOptions>;

function evalAddOptions(line: CommandLine): EvalAddOptions {
  const parsed = EvalAddOptions.safeParse({
    dataset: line.args[0],
    fromRun: line.texts('from-run') ?? [],
    fromSearch: line.text('from-search'),
    limit: line.text('limit'),
    tenant: line.text('tenant'),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = issue.path[0] === 'limit' ? '--limit: ' : '';
  throw new UsageError(`${flag}${issue.message}`);
}

/** The runs the store finds for the query, in the auditor's view through the policy's lens, newest first. */
async function foundRuns(options: EvalAddOptions, policy: LoadedPolicy | undefined): Promise<string[]> {
  const store = await openReadStore();
  if (!store)
    throw new UsageError(
      '--from-search reads the chain store, and there is none here: fill one with `thoughtline store rebuild`, or set THOUGHTLINE_STORE where serve keeps it.',
    );
  try {
    const search = RunSearch.parse({ text: options.fromSearch, limit: options.limit ?? 20 });
    const scope = { tenant: options.tenant ?? null, role: 'auditor' as const };
    const found = await searchStore(store, search, scope);
    const lensOf = lensOfPolicy(policy);
    const result = await hitsInLens(store, 'auditor', search, found, async (run) => lensOf(run, 'auditor'));
    return result.hits.map((hit) => hit.run.runId);
  } finally {
    await store.close();
  }
}

/**
 * `eval add DATASET --from-run ID… | --from-search QUERY [--limit N] [--tenant T] [--policy FILE]`:
 * each ended run becomes a case of the JSONL dataset with its recording beside it (caseFromRun).
 * A run named by --from-run that cannot become a case stops the command before anything is
 * written; a run the search found is skipped, saying why.
 */
export async function evalAdd(line: CommandLine): Promise<number> {
  const options = evalAddOptions(line);
  let taken: Set<string>;
  try {
    taken = caseIdsOf(options.dataset);
  } catch (err) {
    if (err instanceof DatasetError) throw new UsageError(`the dataset has problems:\n${err.message}`);
    throw err;
  }
  const policy = await readPolicyOption(line);
  const named = new Set(options.fromRun);
  const searched = options.fromSearch !== undefined ? await foundRuns(options, policy) : [];
  if (options.fromSearch !== undefined)
    log(`the chain store found ${counted(searched.length, 'run')} for ${JSON.stringify(options.fromSearch)}`);
  const { agents } = await connect();
  const lensOf = lensOfPolicy(policy);
  const cases: CaseFromRun[] = [];
  // Imports (`import:…`) are read from the chain store, opened once when one is named or found.
  let store: ChainStore | undefined;
  const importStore = async (): Promise<ChainStore> => {
    store ??= await openReadStore();
    if (!store)
      throw new UsageError(
        'an imported run (import:…) is read from the chain store, and there is none here: set THOUGHTLINE_STORE to the store it was imported into.',
      );
    return store;
  };
  try {
    for (const runId of [...options.fromRun, ...searched.filter((id) => !named.has(id))]) {
      const fromSearch = !named.has(runId);
      if (taken.has(caseIdOfRun(runId))) {
        if (!fromSearch)
          throw new CaseFromRunError(CaseFromRunRefusal.Duplicate, runId, 'the dataset already has its case.');
        log(`skipped ${runId}: the dataset already has its case`);
        continue;
      }
      try {
        const auditorLens = (chain: Parameters<typeof identityOfChain>[0]) => lensOf(identityOfChain(chain), 'auditor');
        cases.push(
          isImportRunId(runId)
            ? await importAsCase(await importStore(), runId, undefined, (read) => auditorLens(read.chain))
            : await runAsCase(agents, runId, auditorLens),
        );
      } catch (err) {
        if (!(err instanceof CaseFromRunError) || !fromSearch) throw err;
        log(`skipped ${err.message}`);
      }
    }
  } finally {
    await agents.client.connection.close();
    await store?.close();
  }
  let added: string[] = [];
  try {
    if (cases.length > 0) added = appendCases(options.dataset, cases);
  } catch (err) {
    // A symlinked recordings/ or recording is the person's to fix: named, nothing written outside.
    if (err instanceof DatasetError) throw new UsageError(`the dataset has problems:\n${err.message}`);
    throw err;
  }
  const lines = cases.map(
    (c) =>
      `Added ${c.case.id}: expects ${String(c.case.expect.terminationReason)}${c.case.expect.answer ? ' and its answer' : ''}; replays ${c.recordingPath}${c.case.tags.includes('from-import') ? ` (rebuilt from the imported chain's steps: the run's input beyond its task and tools is not in an export)` : ''}\n`,
  );
  writeSafe(
    process.stdout,
    `${lines.join('')}${counted(added.length, 'case')} added to ${options.dataset}.${added.length > 0 ? ` Replay them offline: thoughtline eval ${path.normalize(options.dataset)}` : ''}\n`,
  );
  return 0;
}

export const EVAL_ADD_COMMAND: CommandSpec = {
  name: 'eval add',
  group: 'Evaluation',
  summary: 'make cases of ended runs, replaying their recorded replies',
  description:
    "Append ended runs to a .jsonl dataset as cases (made when missing): each case's recording of the run's model replies and tool results, secrets redacted, is written to recordings/<case>.jsonl beside the dataset, and it expects the run's ending, its answer when it succeeded and its tool calls. The runs are read as the auditor reads them (their whole model calls), through the visibility policy. A run named by --from-run that cannot become a case (running, cancelled, scored as bad by a person, waiting on people, too large, already in the dataset) stops the command before anything is written; a run found by --from-search is skipped, saying why (docs/evaluation.md). An imported run (import:…) is read from the chain store (THOUGHTLINE_STORE), its recording rebuilt from its steps and the case tagged from-import.",
  examples: [
    'thoughtline eval add eval/production.jsonl --from-run agent-1 --from-run agent-2',
    'thoughtline eval add eval/production.jsonl --from-search "refund" --limit 10',
  ],
  args: [{ name: '<dataset>', needs: 'a .jsonl dataset to append to, e.g. thoughtline eval add eval/prod.jsonl' }],
  options: {
    'from-run': texts('ID', 'this ended run becomes a case'),
    'from-search': text('QUERY', "runs in the chain store whose task or steps hold QUERY (the auditor's view)"),
    limit: text('N', 'with --from-search: the most runs added (up to 100)', { default: '20' }),
    tenant: text('T', 'with --from-search: runs of this tenant', { default: 'runs without a tenant' }),
    ...POLICY_OPTION,
  },
  run: evalAdd,
};
