import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../api-error';

/** The shipped viewer: three levels up from both src/server/routes and dist/server/routes. */
export const VIEWER_DIR = path.resolve(__dirname, '../../../viewer');

/** The only kinds of file served; anything else in the folder stays private. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** No inline script or style, no other origin: data the page shows can never run as code. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

interface ViewerFile {
  body: Buffer;
  type: string;
}

/** Every servable file, read once at startup: the request's name is a key, never a path. */
function loadViewerFiles(dir: string): Map<string, ViewerFile> {
  const files = new Map<string, ViewerFile>();
  for (const name of readdirSync(dir)) {
    const type = CONTENT_TYPES[path.extname(name)];
    const full = path.join(dir, name);
    if (!type || !statSync(full).isFile()) continue;
    files.set(name, { body: readFileSync(full), type });
  }
  return files;
}

function send(reply: FastifyReply, file: ViewerFile): FastifyReply {
  return reply
    .header('content-type', file.type)
    .header('cache-control', 'no-cache')
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(file.body);
}

/**
 * The browser viewer: `GET /` is index.html and `GET /viewer/<file>` one of the files present in
 * the viewer folder when the server started (an allow-list; unknown names are 404). No auth: the
 * files are public, the page sends its bearer token to /v1 itself.
 */
export function registerViewerRoute(app: FastifyInstance, dir: string = VIEWER_DIR): void {
  const files = loadViewerFiles(dir);
  const index = files.get('index.html');
  if (!index) throw new Error(`The viewer's index.html is missing from ${dir}; reinstall the package.`);
  app.get('/', async (_request, reply) => send(reply, index));
  app.get<{ Params: { file: string } }>('/viewer/:file', async (request, reply) => {
    // A Map lookup: no prototype keys, no path segments, nothing joined from the request.
    const file = files.get(request.params.file);
    if (!file) {
      const error = new ApiError(
        'not_found',
        `No viewer file named ${JSON.stringify(request.params.file.slice(0, 80))}. Open / for the viewer.`,
      );
      return reply.code(error.status).send(error.toJSON());
    }
    return send(reply, file);
  });
}
