import type { CommandSpec } from '../../spec/command-line';
import { person, PERSON_OPTIONS, positiveInteger, role, roleOption, text } from '../../spec/flags';
import { POLICY_OPTION, readPolicyOption } from '../../spec/policy-option';
import { UsageError } from '../../spec/usage-error';
import { DEFAULT_EXPORT_LIMIT, exportFormatFor, exportRun, MAX_EXPORT_LIMIT } from './export-run';

export const EXPORT_COMMAND: CommandSpec = {
  name: 'export',
  group: 'Store and audit',
  summary: 'the sealed audit report of a run, or of the runs a query finds',
  description:
    "The audit report: who started the run, its chain, approvals, costs, outcome and sub-agents' reports; the auditor's has every model call's whole request and reply. Sealed with a hash chain; signed with --keyring. Format: --format, else --out's extension (.json: JSON, a bundle with --query; .md: markdown), else markdown on stdout.",
  usage: [
    'export <run-id> [--format json|md] [--role ROLE] [--out FILE] [--keyring FILE] [--policy FILE] [--as ID]',
    'export --query "<visibility query>" [--limit N] [--format json|md] [--out FILE] [--keyring FILE]',
  ],
  examples: [
    'thoughtline export agent-1 --out audit.md',
    'thoughtline export --query \'ThoughtlineTenant = "acme"\' --out week.json',
  ],
  args: [{ name: '<run-id>' }],
  options: {
    format: text('json|md', 'the format', { default: "--out's extension, else md" }),
    role: roleOption('auditor'),
    out: text('FILE', 'write the report here', { default: 'stdout' }),
    query: text('QUERY', 'a Temporal visibility query: a bundle of every run it finds'),
    limit: text('N', `with --query: the most runs (up to ${MAX_EXPORT_LIMIT})`, {
      default: String(DEFAULT_EXPORT_LIMIT),
    }),
    keyring: text('FILE', 'sign the report with this keyring', { env: 'THOUGHTLINE_EXPORT_KEYRING' }),
    ...PERSON_OPTIONS,
    ...POLICY_OPTION,
  },
  run: async (l) => {
    const policy = await readPolicyOption(l);
    const out = l.text('out');
    const format = exportFormatFor(l.text('format'), out);
    const keyring = l.text('keyring');
    const query = l.text('query');
    if ((query === undefined) === (l.args[0] === undefined))
      throw new UsageError('export takes a run id, or --query "<visibility query>" for many runs (not both).');
    if (query === undefined && l.text('limit') !== undefined) throw new UsageError('--limit goes with --query.');
    const limit = positiveInteger(l, 'limit', MAX_EXPORT_LIMIT);
    const target = query !== undefined ? { query, ...(limit ? { limit } : {}) } : { workflowId: l.args[0]! };
    await exportRun(target, {
      format,
      role: role(l, 'auditor'),
      ...(out ? { out } : {}),
      ...(keyring ? { keyring } : {}),
      ...(policy ? { policy } : {}),
      ...person(l),
    });
    return 0;
  },
};
