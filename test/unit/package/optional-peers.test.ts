/**
 * What a default `npm install` of thoughtline brings is an allow-list: `dependencies` below, each
 * needed by a first worker, a client or `thoughtline run/demo/serve` on the dev server. Everything
 * a production topology or an integration adds (pg, redis, the MCP SDK, OpenTelemetry's SDK and
 * exporters) is an optional peer, required only when configured, refusing with the install command
 * (the installed-package test checks the refusal where the peer is really absent).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  installCommand,
  OPTIONAL_PEERS,
  OptionalPeerMissingError,
  requireOptionalPeers,
} from '../../../src/packaging/optional-peers';

const ROOT = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** Optional peers with a guard of their own (or types only), not loaded through OPTIONAL_PEERS. */
const OTHER_OPTIONAL_PEERS = ['@ai-sdk/provider', '@temporalio/testing', 'node-llama-cpp', 'react'];

describe('a default install', () => {
  it('brings only the allow-listed dependencies', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(
      [
        '@a2a-js/sdk',
        '@ag-ui/core',
        '@andersmyrmel/vard',
        '@anthropic-ai/sdk',
        '@jitl/quickjs-wasmfile-release-sync',
        '@noble/curves',
        '@noble/hashes',
        '@opentelemetry/api',
        '@redactpii/node',
        '@temporalio/activity',
        '@temporalio/client',
        '@temporalio/common',
        '@temporalio/envconfig',
        '@temporalio/proto',
        '@temporalio/worker',
        '@temporalio/workflow',
        'big-integer',
        'eventsource-parser',
        'fastify',
        'ipaddr.js',
        'jose',
        'minisearch',
        'protobufjs',
        'quickjs-emscripten-core',
        're2js',
        'yaml',
        'zod',
      ].sort(),
    );
  });

  it('declares every optional peer at the range its refusal names, optional, and in devDependencies for the tests', () => {
    for (const [name, range] of Object.entries(OPTIONAL_PEERS)) {
      expect(pkg.peerDependencies[name], name).toBe(range);
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(pkg.devDependencies[name], name).toBe(range);
      expect(pkg.dependencies[name], name).toBeUndefined();
    }
    const optional = Object.keys(pkg.peerDependencies).filter((n) => pkg.peerDependenciesMeta[n]?.optional);
    expect(optional.sort()).toEqual([...Object.keys(OPTIONAL_PEERS), ...OTHER_OPTIONAL_PEERS].sort());
  });

  it('refuses a feature whose peer is missing with a typed error naming every missing package and the install command', () => {
    const notFound = Object.assign(new Error("Cannot find module 'pg'"), { code: 'MODULE_NOT_FOUND' });
    // The peers are installed in this checkout: a load failing for another reason is rethrown as it is.
    expect(() =>
      requireOptionalPeers('The Postgres chain store', ['pg'], () => {
        throw notFound;
      }),
    ).toThrow(notFound);

    const error = new OptionalPeerMissingError('The Redis event bus', ['redis'], notFound);
    expect(error.message).toBe(
      'The Redis event bus needs redis, which is not installed (optional: a default install leaves it out). ' +
        'Install next to thoughtline: npm install redis@^6.3.1',
    );
    expect(error.installCommand).toBe('npm install redis@^6.3.1');
    expect(error.cause).toBe(notFound);
    expect(installCommand(['@opentelemetry/sdk-trace-node', '@opentelemetry/exporter-trace-otlp-grpc'])).toBe(
      'npm install @opentelemetry/sdk-trace-node@^1.30.1 @opentelemetry/exporter-trace-otlp-grpc@^0.57.2',
    );
  });
});
