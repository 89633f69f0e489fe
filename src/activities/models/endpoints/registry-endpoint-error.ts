/** A model registry entry whose endpoint this worker cannot build: the worker does not start. */
export class RegistryEndpointError extends Error {
  override readonly name = 'RegistryEndpointError';

  constructor(
    readonly entry: string,
    problem: string,
  ) {
    super(`Model registry entry "${entry}": ${problem}.`);
  }
}
