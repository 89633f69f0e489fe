import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConnectionSettings, TemporalConfigError } from '../../src/connection';
import { makeTestCertificates, type TestCertificates } from '../helpers/test-certificates';

const API_KEY = 'tl-test-api-key-0123456789abcdef';
let certs: TestCertificates;
const read = (file: string): Buffer => fs.readFileSync(file);

/** Writes a temporal.toml into the certificates' directory and returns its path. */
function tomlFile(name: string, text: string): string {
  const file = path.join(certs.dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** The TemporalConfigError `load` throws; fails the test when it throws anything else or nothing. */
function configError(load: () => unknown): TemporalConfigError {
  try {
    load();
  } catch (err) {
    expect(err).toBeInstanceOf(TemporalConfigError);
    return err as TemporalConfigError;
  }
  throw new Error('expected a TemporalConfigError');
}

beforeAll(() => {
  certs = makeTestCertificates();
});
afterAll(() => certs.remove());

describe('loadConnectionSettings: TEMPORAL_* variables', () => {
  it('with nothing set: no address (the local dev server), namespace default, plain', () => {
    const s = loadConnectionSettings({}, {});
    expect({ ...s }).toEqual({ namespace: 'default' });
  });

  it('takes address and namespace, and says where the address came from', () => {
    const s = loadConnectionSettings(
      {},
      { TEMPORAL_ADDRESS: 'temporal.example.com:7233', TEMPORAL_NAMESPACE: 'agents' },
    );
    expect({ ...s }).toEqual({
      address: 'temporal.example.com:7233',
      addressFrom: 'TEMPORAL_ADDRESS',
      namespace: 'agents',
    });
  });

  it('an API key turns TLS on, unless TEMPORAL_TLS=false says otherwise', () => {
    const env = { TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_API_KEY: API_KEY };
    expect(loadConnectionSettings({}, env)).toMatchObject({ tls: true, apiKey: API_KEY });
    expect(loadConnectionSettings({}, { ...env, TEMPORAL_TLS: 'false' })).toMatchObject({
      tls: false,
      apiKey: API_KEY,
    });
  });

  it('reads the client pair, the server CA and the server name from their _PATH variables', () => {
    const s = loadConnectionSettings(
      {},
      {
        TEMPORAL_ADDRESS: '127.0.0.1:7233',
        TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
        TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert,
        TEMPORAL_TLS_SERVER_NAME: 'localhost',
      },
    );
    expect(s.tls).toEqual({
      serverNameOverride: 'localhost',
      serverRootCACertificate: read(certs.caCert),
      clientCertPair: { crt: read(certs.clientCert), key: read(certs.clientKey) },
    });
  });

  it('takes the same from the _DATA variables', () => {
    const s = loadConnectionSettings(
      {},
      {
        TEMPORAL_ADDRESS: '127.0.0.1:7233',
        TEMPORAL_TLS_CLIENT_CERT_DATA: read(certs.clientCert).toString(),
        TEMPORAL_TLS_CLIENT_KEY_DATA: read(certs.clientKey).toString(),
        TEMPORAL_TLS_SERVER_CA_CERT_DATA: read(certs.caCert).toString(),
      },
    );
    expect(s.tls).toEqual({
      serverRootCACertificate: read(certs.caCert),
      clientCertPair: { crt: read(certs.clientCert), key: read(certs.clientKey) },
    });
  });

  it('TEMPORAL_TLS=true alone is TLS with the system roots; TEMPORAL_GRPC_META_* become headers', () => {
    const s = loadConnectionSettings(
      {},
      { TEMPORAL_ADDRESS: 'a.example:7233', TEMPORAL_TLS: 'true', TEMPORAL_GRPC_META_X_TENANT: 'acme' },
    );
    expect(s).toMatchObject({ tls: {}, metadata: { 'x-tenant': 'acme' } });
  });
});

describe('loadConnectionSettings: temporal.toml profiles and precedence', () => {
  const PROFILES = `
[profile.default]
address = "default.example:7233"
namespace = "dev"

[profile.prod]
address = "prod.example:7233"
namespace = "prod"
api_key = "${API_KEY}"
`;

  it('TEMPORAL_PROFILE picks a profile of TEMPORAL_CONFIG_FILE; without it, the default profile', () => {
    const file = tomlFile('profiles.toml', PROFILES);
    expect(loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: file })).toMatchObject({
      address: 'default.example:7233',
      namespace: 'dev',
      addressFrom: `address of profile 'default' in ${file}`,
    });
    expect(loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' })).toMatchObject({
      address: 'prod.example:7233',
      namespace: 'prod',
      apiKey: API_KEY,
      tls: true,
    });
  });

  it('variables override the profile, and options in code override both', () => {
    const file = tomlFile('profiles.toml', PROFILES);
    const env = { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod', TEMPORAL_NAMESPACE: 'from-env' };
    expect(loadConnectionSettings({}, env)).toMatchObject({ namespace: 'from-env', address: 'prod.example:7233' });
    expect(
      loadConnectionSettings({ namespace: 'from-code', address: 'code.example:7233', tls: false }, env),
    ).toMatchObject({ namespace: 'from-code', address: 'code.example:7233', addressFrom: 'code', tls: false });
  });

  it('an empty variable counts as unset: the profile still applies', () => {
    const file = tomlFile('profiles.toml', PROFILES);
    expect(loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: file, TEMPORAL_ADDRESS: '' }).address).toBe(
      'default.example:7233',
    );
  });

  it("reads Temporal's default location, $XDG_CONFIG_HOME/temporalio/temporal.toml, and $HOME/.config without it", () => {
    fs.mkdirSync(path.join(certs.dir, 'xdg/temporalio'), { recursive: true });
    tomlFile('xdg/temporalio/temporal.toml', '[profile.default]\naddress = "xdg.example:7233"\n');
    expect(loadConnectionSettings({}, { XDG_CONFIG_HOME: path.join(certs.dir, 'xdg') }).address).toBe(
      'xdg.example:7233',
    );
    fs.mkdirSync(path.join(certs.dir, 'home/.config/temporalio'), { recursive: true });
    tomlFile('home/.config/temporalio/temporal.toml', '[profile.default]\naddress = "home.example:7233"\n');
    expect(loadConnectionSettings({}, { HOME: path.join(certs.dir, 'home') }).address).toBe('home.example:7233');
    // No file at the default location is fine.
    expect(loadConnectionSettings({}, { HOME: path.join(certs.dir, 'nowhere') }).address).toBeUndefined();
  });

  it('certificate paths in a profile are read like the variables', () => {
    const file = tomlFile(
      'mtls.toml',
      `[profile.default]\naddress = "127.0.0.1:7233"\n[profile.default.tls]\nclient_cert_path = "${certs.clientCert}"\nclient_key_path = "${certs.clientKey}"\nserver_ca_cert_path = "${certs.caCert}"\n`,
    );
    expect(loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: file }).tls).toEqual({
      serverRootCACertificate: read(certs.caCert),
      clientCertPair: { crt: read(certs.clientCert), key: read(certs.clientKey) },
    });
  });
});

describe('loadConnectionSettings: a bad configuration fails naming the setting and what to set', () => {
  it('TEMPORAL_CONFIG_FILE naming no file', () => {
    const e = configError(() => loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: '/nonexistent/temporal.toml' }));
    expect(e.setting).toBe('TEMPORAL_CONFIG_FILE');
    expect(e.message).toBe(
      "TEMPORAL_CONFIG_FILE is set to '/nonexistent/temporal.toml', which cannot be read (no such file): set it to your temporal.toml, or unset it",
    );
  });

  it('a profile the file does not have, listing those it has; and a profile with no file at all', () => {
    const file = tomlFile('two.toml', '[profile.default]\naddress = "a:1"\n[profile.staging]\naddress = "b:1"\n');
    const e = configError(() => loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' }));
    expect(e.setting).toBe('TEMPORAL_PROFILE');
    expect(e.message).toContain(
      `TEMPORAL_PROFILE is 'prod' but ${file} has no [profile.prod]; its profiles: default, staging.`,
    );
    const none = configError(() =>
      loadConnectionSettings({}, { HOME: path.join(certs.dir, 'nowhere'), TEMPORAL_PROFILE: 'prod' }),
    );
    expect(none.message).toContain(
      `TEMPORAL_PROFILE is 'prod' but there is no ${path.join(certs.dir, 'nowhere/.config/temporalio/temporal.toml')}`,
    );
  });

  it('a file that is not TOML: the line and column, never the text around them (it may hold a key)', () => {
    const file = tomlFile('broken.toml', `[profile.default]\napi_key = "${API_KEY}"\naddress = \n`);
    const e = configError(() => loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: file }));
    expect(e.message).toBe(`the Temporal config file ${file} is not valid TOML (line 3, column 11): fix it`);
  });

  it('a value of the wrong type or form names its variable or its key in the profile', () => {
    expect(configError(() => loadConnectionSettings({}, { TEMPORAL_ADDRESS: 'temporal.example.com' })).message).toBe(
      'TEMPORAL_ADDRESS: must be host:port',
    );
    const file = tomlFile('typed.toml', '[profile.default]\naddress = 7233\n');
    expect(configError(() => loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: file })).message).toMatch(
      new RegExp(`^address of profile 'default' in ${file}: Invalid input: expected string`),
    );
    expect(configError(() => loadConnectionSettings({}, { TEMPORAL_TLS: 'yes' })).message).toBe(
      "TEMPORAL_TLS is 'yes': set it to true or false",
    );
  });

  it('a certificate file that cannot be read names the variable, or the profile key that named it', () => {
    const env = { TEMPORAL_ADDRESS: 'a:1', TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey };
    const e = configError(() =>
      loadConnectionSettings({}, { ...env, TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.pem' }),
    );
    expect(e.setting).toBe('TEMPORAL_TLS_CLIENT_CERT_PATH');
    expect(e.message).toBe(
      "TEMPORAL_TLS_CLIENT_CERT_PATH is '/nonexistent/client.pem', which cannot be read (no such file): set it to the PEM file of this client's certificate",
    );
    const file = tomlFile(
      'missing-ca.toml',
      '[profile.default]\naddress = "a:1"\n[profile.default.tls]\nserver_ca_cert_path = "/nonexistent/ca.pem"\n',
    );
    expect(configError(() => loadConnectionSettings({}, { TEMPORAL_CONFIG_FILE: file })).message).toMatch(
      new RegExp(
        `^tls.server_ca_cert_path of profile 'default' in ${file} is '/nonexistent/ca.pem', which cannot be read`,
      ),
    );
  });

  it('a certificate without its key, a key of another certificate, a file that is no certificate, an expired one', () => {
    const base = { TEMPORAL_ADDRESS: 'a:1' };
    expect(
      configError(() => loadConnectionSettings({}, { ...base, TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert }))
        .message,
    ).toBe(
      "a client certificate is configured without its key: set TEMPORAL_TLS_CLIENT_KEY_PATH (or tls.client_key_path in profile 'default') too",
    );
    const pair = {
      ...base,
      TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: certs.strangerKey,
    };
    expect(configError(() => loadConnectionSettings({}, pair)).message).toBe(
      'TEMPORAL_TLS_CLIENT_KEY_PATH is not the private key of the certificate in TEMPORAL_TLS_CLIENT_CERT_PATH: set the pair that belongs together',
    );
    const notPem = tomlFile('not-a-cert.pem', 'hello');
    expect(
      configError(() => loadConnectionSettings({}, { ...base, TEMPORAL_TLS_SERVER_CA_CERT_PATH: notPem })).message,
    ).toBe(
      "TEMPORAL_TLS_SERVER_CA_CERT_PATH is not a PEM certificate: set it to the CA certificate that signed the server's certificate",
    );
    const expired = {
      ...base,
      TEMPORAL_TLS_CLIENT_CERT_PATH: certs.expiredCert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
    };
    expect(configError(() => loadConnectionSettings({}, expired)).message).toMatch(
      /^TEMPORAL_TLS_CLIENT_CERT_PATH: the certificate expired on .+: renew it$/,
    );
  });

  it('a path and data for the same part; host verification off, which the SDK cannot do', () => {
    const both = {
      TEMPORAL_ADDRESS: 'a:1',
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert,
      TEMPORAL_TLS_SERVER_CA_CERT_DATA: read(certs.caCert).toString(),
    };
    expect(configError(() => loadConnectionSettings({}, both)).setting).toBe('TEMPORAL_TLS_SERVER_CA_CERT_PATH');
    const e = configError(() =>
      loadConnectionSettings({}, { TEMPORAL_ADDRESS: 'a:1', TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: 'true' }),
    );
    expect(e.message).toContain('set TEMPORAL_TLS_SERVER_NAME to a name in the server');
  });

  it('an API key or TLS with no address to use them on', () => {
    const e = configError(() => loadConnectionSettings({}, { TEMPORAL_API_KEY: API_KEY }));
    expect(e.setting).toBe('TEMPORAL_ADDRESS');
    expect(e.message).toMatch(
      /^an API key \(TEMPORAL_API_KEY\) is configured but no server address: set TEMPORAL_ADDRESS/,
    );
    expect(configError(() => loadConnectionSettings({}, { TEMPORAL_TLS: 'true' })).message).toMatch(/^TLS/);
  });
});

describe('loadConnectionSettings: secrets stay out of what is printed', () => {
  it('inspect and JSON show the settings without the API key, the client key or header values', () => {
    const s = loadConnectionSettings(
      {},
      {
        TEMPORAL_ADDRESS: 'a.example:7233',
        TEMPORAL_API_KEY: API_KEY,
        TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
        TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
        TEMPORAL_GRPC_META_AUTHORIZATION_EXTRA: 'header-secret',
      },
    );
    const key = read(certs.clientKey).toString();
    for (const shown of [inspect(s, { depth: 10 }), JSON.stringify(s), inspect({ config: s }, { depth: 10 })]) {
      expect(shown).toContain('a.example:7233');
      expect(shown).toContain('[hidden]');
      expect(shown).not.toContain(API_KEY);
      expect(shown).not.toContain('header-secret');
      expect(shown).not.toContain(key.split('\n')[1]);
    }
    // What the SDK is given is still whole.
    expect({ ...s }.apiKey).toBe(API_KEY);
  });
});
