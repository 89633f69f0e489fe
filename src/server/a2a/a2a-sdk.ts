/**
 * `@a2a-js/sdk` is an ES module package: this CommonJS build loads it with a dynamic import, once,
 * when the first A2A request arrives, and takes its types with `resolution-mode: import`.
 */
export type A2aCore = typeof import('@a2a-js/sdk', { with: { 'resolution-mode': 'import' } });
export type A2aServer = typeof import('@a2a-js/sdk/server', { with: { 'resolution-mode': 'import' } });
export type A2aErrors = typeof import('@a2a-js/sdk/errors', { with: { 'resolution-mode': 'import' } });
export type A2aLegacyServer = typeof import('@a2a-js/sdk/compat/v0_3/server', {
  with: { 'resolution-mode': 'import' },
});

export interface A2aSdk {
  core: A2aCore;
  server: A2aServer;
  errors: A2aErrors;
  legacy: A2aLegacyServer;
}

let loading: Promise<A2aSdk> | undefined;

/** The SDK's modules; the same promise for every caller. */
export function loadA2aSdk(): Promise<A2aSdk> {
  loading ??= Promise.all([
    import('@a2a-js/sdk'),
    import('@a2a-js/sdk/server'),
    import('@a2a-js/sdk/errors'),
    import('@a2a-js/sdk/compat/v0_3/server'),
  ]).then(([core, server, errors, legacy]) => ({ core, server, errors, legacy }));
  return loading;
}
