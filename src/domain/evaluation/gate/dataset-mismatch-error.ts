/** The baseline ran another dataset (its sha256 differs): its figures do not compare. */
export class DatasetMismatchError extends Error {
  override readonly name = 'DatasetMismatchError';
  constructor(
    readonly baseline: { name: string; sha256: string },
    readonly current: { name: string; sha256: string },
  ) {
    super(
      `the baseline ran dataset ${baseline.name} (sha256 ${baseline.sha256.slice(0, 12)}…), this evaluation ${current.name} (sha256 ${current.sha256.slice(0, 12)}…): ` +
        'a changed dataset moves every figure, so the gate refuses to compare them. Record a new baseline, or pass --baseline-any-dataset to compare anyway.',
    );
  }
}
