/**
 * The run's tenant, for its cache entries and its agent memory: its caller's, or undefined for a
 * run without one (an empty name is none). Never a stand-in name: a tenant may be called anything,
 * `default` included, so the keys themselves keep "no tenant" apart (cache-key.ts, memoryWorkflowId).
 */
export function runTenant(input: { caller?: { tenant?: string | undefined } | undefined }): string | undefined {
  return input.caller?.tenant || undefined;
}
