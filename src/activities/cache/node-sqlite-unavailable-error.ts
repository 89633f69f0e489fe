/**
 * This process's Node has no `node:sqlite` (it came in 22.5 behind a flag, without one in 22.13):
 * thrown where the run cache or the SQLite chain store opens its file, instead of a TypeError.
 */
export class NodeSqliteUnavailableError extends Error {
  override readonly name = 'NodeSqliteUnavailableError';
  /** The oldest Node whose `node:sqlite` loads without a flag. */
  readonly needed = '22.13';

  constructor(
    /** What needed it (the file being opened). */
    readonly what: string,
    /** The Node version found (`process.versions.node`). */
    readonly found: string = process.versions.node,
  ) {
    super(
      `${what} needs Node's built-in node:sqlite, in Node 22.13 or later, and this process runs Node ${found}. ` +
        'Run it on a newer Node: install one from https://nodejs.org, or put first on PATH the bin folder of the ' +
        'Node that `npx thoughtline` installs under ~/.cache/thoughtline/node ' +
        '(in a checkout of thoughtline, `source scripts/ensure-node.sh`).',
    );
  }
}
