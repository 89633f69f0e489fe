import { CodeRunNodeError } from './code-run-node-error';

/**
 * Node 22.15 is the first 22.x with `module.registerHooks` (the child's network hooks); `--permission`
 * without its experimental prefix came in 22.13. On Node 20 the child would fail `bad option:
 * --permission` only after a person approved the call, so the tool refuses to be created instead.
 */
export const CODE_RUN_NODE = { major: 22, minor: 15 } as const;

const FIX =
  'Run the worker on a newer Node: install one from https://nodejs.org, or put first on PATH the bin folder of the ' +
  'Node that `npx thoughtline` installs under ~/.cache/thoughtline/node (in a checkout of thoughtline, ' +
  '`source scripts/ensure-node.sh` installs Node 22 into .thoughtline/node and puts it first on PATH).';

/** Throws `CodeRunNodeError` unless `version` (default: this process's Node, which runs the child) is new enough. */
export function checkCodeRunNode(version: string = process.versions.node): void {
  const [major = NaN, minor = NaN] = version.replace(/^v/, '').split('.').map(Number);
  const { major: needMajor, minor: needMinor } = CODE_RUN_NODE;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return;
  throw new CodeRunNodeError(version, `${needMajor}.${needMinor}`, FIX);
}
