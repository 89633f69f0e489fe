import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerViewerRoute, VIEWER_DIR } from '../../src/server/routes/viewer-route';

async function appFor(dir?: string) {
  const app = Fastify();
  registerViewerRoute(app, dir);
  await app.ready();
  return app;
}

describe('viewer route', () => {
  it('serves index.html at / with a strict CSP, nosniff and no-cache', async () => {
    const app = await appFor();
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(res.headers['content-security-policy']);
    for (const part of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "img-src 'self' data:",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(part);
    expect(csp).not.toContain('unsafe');
    expect(res.body).toContain('<script type="module" src="/viewer/app.js">');
    await app.close();
  });

  it('serves every module the page imports with its content type', async () => {
    const app = await appFor();
    for (const [file, type] of [
      ['app.js', 'text/javascript; charset=utf-8'],
      ['run-page.js', 'text/javascript; charset=utf-8'],
      ['sse.js', 'text/javascript; charset=utf-8'],
      ['style.css', 'text/css; charset=utf-8'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url: `/viewer/${file}` });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['content-type']).toBe(type);
    }
    // Every relative import in every served module names a file the route serves too.
    const modules = readdirSync(VIEWER_DIR).filter((f) => f.endsWith('.js'));
    for (const file of modules) {
      const body = (await app.inject({ method: 'GET', url: `/viewer/${file}` })).body;
      for (const [, imported] of body.matchAll(/from '\.\/([^']+)'/g)) {
        expect(
          (await app.inject({ method: 'GET', url: `/viewer/${imported}` })).statusCode,
          `${file} imports ${imported}`,
        ).toBe(200);
      }
    }
    await app.close();
  });

  it('answers 404 JSON for names outside the allow-list, traversal included', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'viewer-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(dir, 'notes.txt'), 'private');
    writeFileSync(path.join(dir, 'app.js'), 'export {}');
    mkdirSync(path.join(dir, 'sub.js'));
    const app = await appFor(dir);
    for (const url of [
      '/viewer/notes.txt',
      '/viewer/sub.js',
      '/viewer/..%2Fpackage.json',
      '/viewer/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/viewer/constructor',
      '/viewer/__proto__',
      '/viewer/',
      '/viewer/APP.JS',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      if (url !== '/viewer/') expect(res.json().error.code, url).toBe('not_found');
    }
    expect((await app.inject({ method: 'GET', url: '/viewer/app.js' })).statusCode).toBe(200);
    await app.close();
  });

  it('only lists files it can serve from the shipped folder', async () => {
    expect(path.basename(VIEWER_DIR)).toBe('viewer');
    const app = await appFor();
    expect((await app.inject({ method: 'GET', url: '/viewer/index.html' })).statusCode).toBe(200);
    await app.close();
  });
});
