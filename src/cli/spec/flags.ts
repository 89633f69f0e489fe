import { parseViewerRole } from '../../domain/chain/chain-view';
import { AgentId, BUILT_IN_MODEL_PROVIDERS, ModelProviderName, type ViewerRole } from '../../domain';
import type { ArgSpec, CommandLine, OptionSpec } from './command-line';
import { UsageError } from './usage-error';

/** A flag: present or not. */
export const flag = (help: string, more: Partial<OptionSpec> = {}): OptionSpec => ({ type: 'boolean', help, ...more });

/** An option with a value, called `value` in help. */
export const text = (value: string, help: string, more: Partial<OptionSpec> = {}): OptionSpec => ({
  type: 'string',
  value,
  help,
  ...more,
});

/** An option that may be given more than once. */
export const texts = (value: string, help: string, more: Partial<OptionSpec> = {}): OptionSpec =>
  text(value, help, { multiple: true, ...more });

export const RUN_ID: ArgSpec = { name: '<run-id>', needs: 'a run id (the agent-… id run printed)' };

/** Who decides, for the commands a person acts through (approve, reject, steer, answer, score, export, fork). */
export const PERSON_OPTIONS = {
  as: text('ID', 'who acts', { env: 'THOUGHTLINE_USER', default: 'the OS user' }),
  roles: text('a,b', 'their roles', { env: 'THOUGHTLINE_ROLES' }),
} as const satisfies Record<string, OptionSpec>;

/**
 * The person and the keyring a decision is signed with (approve, reject, answer, steer,
 * raise-budget). Signed, --as and --roles count toward a run's role rules (the keyring's holder is
 * as trusted as the server that signs with it); unsigned, the roles are recorded as claimed and a
 * rule that needs a role refuses them.
 */
export const DECIDER_OPTIONS = {
  as: PERSON_OPTIONS.as,
  roles: text('a,b', 'their roles: verified when the decision is signed, else claimed (a rule needing one refuses)', {
    env: 'THOUGHTLINE_ROLES',
  }),
  'signing-keys': text('FILE', "sign the decision with this keyring (the server's; runs started with its keys)", {
    env: 'THOUGHTLINE_SIGNING_KEYS',
    default: '.thoughtline/signing-keys.json when readable, else unsigned',
  }),
} as const satisfies Record<string, OptionSpec>;

/** `--role`: the view a reading command prints. */
export const roleOption = (fallback: ViewerRole): OptionSpec =>
  text('ROLE', 'the view: end_user, developer or auditor', { default: fallback });

export function role(line: CommandLine, fallback: ViewerRole): ViewerRole {
  try {
    return parseViewerRole(line.text('role') ?? fallback);
  } catch (err) {
    throw new UsageError(`--role: ${(err as Error).message}`);
  }
}

export const person = (line: CommandLine): { as?: string; roles?: string } => ({
  ...(line.text('as') !== undefined ? { as: line.text('as')! } : {}),
  ...(line.text('roles') !== undefined ? { roles: line.text('roles')! } : {}),
});

/** `person` and the `--signing-keys` a decision command was given (the default keyring is looked up later). */
export const decider = (line: CommandLine): { as?: string; roles?: string; signingKeys?: string } => ({
  ...person(line),
  ...(line.text('signing-keys') !== undefined ? { signingKeys: line.text('signing-keys')! } : {}),
});

export function positiveInteger(line: CommandLine, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = line.text(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!(Number.isInteger(n) && n > 0 && n <= max))
    throw new UsageError(
      `--${name} takes a positive whole number${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, not "${raw}".`,
    );
  return n;
}

export function nonNegativeInteger(line: CommandLine, name: string): number {
  const raw = line.text(name) ?? '';
  const n = Number(raw);
  if (!(raw.trim() !== '' && Number.isInteger(n) && n >= 0))
    throw new UsageError(`--${name} takes a whole number (0 or more), not "${raw}".`);
  return n;
}

/** `--agent NAME`: an agent id as definitions spell it, else a usage error. */
export function agentName(text: string): string {
  const parsed = AgentId.safeParse(text);
  if (!parsed.success) throw new UsageError(`--agent "${text}": ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** `--strategy`: how the run talks to its model. */
export function strategyName(text: string): 'native' | 'react-text' {
  if (text === 'native' || text === 'react-text') return text;
  throw new UsageError(
    `--strategy takes native (the model's own tool calling) or react-text (Thought / Action text, for models without tool calling), not "${text}".`,
  );
}

/** The provider of `provider/model`, checked against the providers there are. */
export function providerOf(text: string): ModelProviderName {
  const parsed = ModelProviderName.safeParse(text.slice(0, text.indexOf('/')));
  if (!parsed.success)
    throw new UsageError(
      `--model: "${text.slice(0, text.indexOf('/'))}" is not a provider name (built in: ${BUILT_IN_MODEL_PROVIDERS.join(', ')}); write provider/model or just the model.`,
    );
  return parsed.data;
}
