import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readRegularFile } from '../files/read-regular-file';
import { RegularFileError } from '../files/regular-file-error';
import type { TLSConfig } from '@temporalio/client';
import type { ClientConfigTLS, ConfigDataSource } from '@temporalio/envconfig';
import { TemporalConfigError } from './temporal-config-error';

type Part = 'client_cert' | 'client_key' | 'server_ca_cert';

/** Largest PEM file read: a certificate chain or a key. */
const MAX_PEM_BYTES = 1024 * 1024;

const WHAT: Record<Part, string> = {
  client_cert: "this client's certificate",
  client_key: "this client's private key",
  server_ca_cert: "the CA certificate that signed the server's certificate",
};

/**
 * The variable (or the profile key) a TLS part came from, for messages: env wins over the file
 * in Temporal's loader, so a variable that is set is the source.
 */
function settingOf(part: Part, source: ConfigDataSource, env: NodeJS.ProcessEnv, profile: string): string {
  const form = 'path' in source ? 'path' : 'data';
  const variable = `TEMPORAL_TLS_${part.toUpperCase()}_${form.toUpperCase()}`;
  return env[variable] ? variable : `tls.${part}_${form} of ${profile}`;
}

/** The bytes of one part; a path that cannot be read fails naming its setting. Data is never quoted. */
function readPart(part: Part, source: ConfigDataSource, setting: string): Buffer {
  if (!('path' in source)) return Buffer.from(source.data);
  try {
    return readRegularFile(source.path, MAX_PEM_BYTES);
  } catch (err) {
    const why = err instanceof RegularFileError ? err.message : String(err);
    throw new TemporalConfigError(
      setting,
      `${setting} is '${source.path}', which cannot be read (${why}): set it to the PEM file of ${WHAT[part]}`,
    );
  }
}

function certificate(part: Part, bytes: Buffer, setting: string): X509Certificate {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(bytes);
  } catch {
    throw new TemporalConfigError(setting, `${setting} is not a PEM certificate: set it to ${WHAT[part]}`);
  }
  // Caught here rather than as an opaque handshake failure later.
  if (Date.parse(cert.validTo) < Date.now())
    throw new TemporalConfigError(setting, `${setting}: the certificate expired on ${cert.validTo}: renew it`);
  return cert;
}

function privateKey(bytes: Buffer, setting: string): KeyObject {
  try {
    return createPrivateKey(bytes);
  } catch {
    // The parser's own words are not repeated: nothing of the key reaches a message.
    throw new TemporalConfigError(
      setting,
      `${setting} is not an unencrypted PEM private key: set it to ${WHAT.client_key}`,
    );
  }
}

/**
 * The TLSConfig of a profile's TLS table (env already merged in), its files read and checked
 * now: a missing file, a certificate without its key, a key of another certificate or an
 * expired certificate fails with the setting's name instead of during a handshake.
 */
export function readTlsMaterial(tls: ClientConfigTLS, env: NodeJS.ProcessEnv, profile: string): TLSConfig {
  const { clientCert, clientKey, serverCACert, serverName } = tls;
  if ((clientCert === undefined) !== (clientKey === undefined)) {
    const [set, missing] = clientCert ? ['certificate', 'KEY'] : ['key', 'CERT'];
    throw new TemporalConfigError(
      `TEMPORAL_TLS_CLIENT_${missing}_PATH`,
      `a client ${set} is configured without its ${set === 'key' ? 'certificate' : 'key'}: ` +
        `set TEMPORAL_TLS_CLIENT_${missing}_PATH (or tls.client_${missing.toLowerCase()}_path in ${profile}) too`,
    );
  }
  const config: TLSConfig = serverName ? { serverNameOverride: serverName } : {};
  if (serverCACert) {
    const setting = settingOf('server_ca_cert', serverCACert, env, profile);
    const ca = readPart('server_ca_cert', serverCACert, setting);
    certificate('server_ca_cert', ca, setting);
    config.serverRootCACertificate = ca;
  }
  if (clientCert && clientKey) {
    const certSetting = settingOf('client_cert', clientCert, env, profile);
    const keySetting = settingOf('client_key', clientKey, env, profile);
    const crt = readPart('client_cert', clientCert, certSetting);
    const key = readPart('client_key', clientKey, keySetting);
    if (!certificate('client_cert', crt, certSetting).checkPrivateKey(privateKey(key, keySetting)))
      throw new TemporalConfigError(
        keySetting,
        `${keySetting} is not the private key of the certificate in ${certSetting}: set the pair that belongs together`,
      );
    config.clientCertPair = { crt, key };
  }
  return config;
}
