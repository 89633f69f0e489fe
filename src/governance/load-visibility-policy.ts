import { readRegularFile } from '../files/read-regular-file';
import { RegularFileError } from '../files/regular-file-error';
import { VisibilityPolicy } from '../domain/visibility';
import { VisibilityPolicyError } from './visibility-policy-error';

/** Largest policy file read: a policy is configuration, never data. */
export const MAX_POLICY_BYTES = 1_048_576;

/** A policy and the deployment this process is, as `resolveViewLens` takes them. */
export interface LoadedPolicy {
  policy: VisibilityPolicy;
  path: string;
  /** `THOUGHTLINE_DEPLOYMENT`, else the policy's own `deployment`; undefined when neither is set. */
  deployment?: string;
}

/**
 * Reads a policy file (YAML, or JSON, which YAML reads too). Anything it cannot read whole and
 * exactly (missing, too large, not YAML, an unknown field, a wrong level) is a
 * VisibilityPolicyError: a policy is never half-applied.
 */
export async function loadVisibilityPolicy(path: string): Promise<VisibilityPolicy> {
  let text: string;
  try {
    text = readRegularFile(path, MAX_POLICY_BYTES).toString('utf8');
  } catch (error) {
    if (error instanceof RegularFileError && error.problem === 'too_large')
      throw new VisibilityPolicyError(path, [`it is ${error.detail} bytes, over the ${MAX_POLICY_BYTES}-byte limit`]);
    if (error instanceof RegularFileError)
      throw new VisibilityPolicyError(path, [`it cannot be read (${error.message})`]);
    throw new VisibilityPolicyError(path, [`it cannot be read (${(error as Error).message})`]);
  }
  // Loaded here, when a policy file is read: every CLI command loads this module, few read one.
  const { parse: parseYaml } = require('yaml') as typeof import('yaml');
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new VisibilityPolicyError(path, [`it is not YAML or JSON (${(error as Error).message})`]);
  }
  const parsed = VisibilityPolicy.safeParse(raw);
  if (!parsed.success)
    throw new VisibilityPolicyError(
      path,
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`),
    );
  return parsed.data;
}

/**
 * The policy named by `THOUGHTLINE_VISIBILITY_POLICY` (or `path`, a command's `--policy`, which
 * wins), or undefined when neither names one: then views follow the built-in roles.
 */
export async function visibilityPolicyFromEnv(
  env: NodeJS.ProcessEnv,
  path?: string,
): Promise<LoadedPolicy | undefined> {
  const file = path ?? (env.THOUGHTLINE_VISIBILITY_POLICY?.trim() || undefined);
  if (file === undefined) return undefined;
  const policy = await loadVisibilityPolicy(file);
  const deployment = env.THOUGHTLINE_DEPLOYMENT?.trim() || policy.deployment;
  return { policy, path: file, ...(deployment ? { deployment } : {}) };
}
