/**
 * `@a2a-js/sdk` is an ES module package: this CommonJS build loads its client with a dynamic
 * import, once, on the first remote call, and takes its types with `resolution-mode: import`.
 */
export type A2aClientModule = typeof import('@a2a-js/sdk/client', { with: { 'resolution-mode': 'import' } });
export type A2aCoreModule = typeof import('@a2a-js/sdk', { with: { 'resolution-mode': 'import' } });

let loading: Promise<{ client: A2aClientModule; core: A2aCoreModule }> | undefined;

export function loadA2aClientSdk(): Promise<{ client: A2aClientModule; core: A2aCoreModule }> {
  loading ??= Promise.all([import('@a2a-js/sdk/client'), import('@a2a-js/sdk')]).then(([client, core]) => ({
    client,
    core,
  }));
  return loading;
}
