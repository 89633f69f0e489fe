import path from 'node:path';

/**
 * Imports one of the viewer's plain ES modules (shipped as-is, untyped) for a node test; the
 * caller names the shape it uses. Only modules that touch no DOM at import time can load here.
 */
export async function viewerModule<T>(file: string): Promise<T> {
  return (await import(path.resolve(__dirname, '../../viewer', file))) as T;
}
