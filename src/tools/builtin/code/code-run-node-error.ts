/** The worker's Node cannot run `code_run`'s sandbox: thrown when the tool is created, before any call. */
export class CodeRunNodeError extends Error {
  override readonly name = 'CodeRunNodeError';

  constructor(
    /** The Node version found (`process.versions.node`). */
    readonly found: string,
    /** The oldest version that works. */
    readonly needed: string,
    /** What to run to get one. */
    readonly fix: string,
  ) {
    super(
      `createCodeRunTool: code_run needs Node ${needed} or later (its sandbox uses the permission model ` +
        `and module.registerHooks), and this worker runs Node ${found}. ${fix}`,
    );
  }
}
