import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeCertificateAuthority, makeSignedCertificate } from './openssl-certificates';

/** The name every certificate the cluster serves is for; clients verify it (TEMPORAL_TLS_SERVER_NAME). */
export const CLUSTER_SERVER_NAME = 'localhost';
const SERVER_NAMES = `subjectAltName=DNS:${CLUSTER_SERVER_NAME},IP:127.0.0.1`;
/** Long enough for a cluster kept for months; a start renews a set within a day of expiring. */
const VALID_DAYS = 365;
const RENEW_WITHIN_MS = 86_400_000;

/** The PEM files of an mTLS cluster, in <cluster>/tls. */
export interface ClusterCertificates {
  /** The cluster's own CA: it signed every certificate below, and the server trusts only it. */
  caCert: string;
  /** Kept to sign more client certificates with openssl. */
  caKey: string;
  /** The frontend's server certificate. */
  frontendCert: string;
  frontendKey: string;
  /** Server and client at once: the roles' internode calls, and the system worker's calls to the frontend. */
  internodeCert: string;
  internodeKey: string;
  /** For Thoughtline and any other client: the pair TEMPORAL_TLS_CLIENT_*_PATH name. */
  clientCert: string;
  clientKey: string;
}

export function clusterCertificatePaths(dir: string): ClusterCertificates {
  const file = (name: string): string => path.join(dir, name);
  return {
    caCert: file('ca.pem'),
    caKey: file('ca.key'),
    frontendCert: file('frontend.pem'),
    frontendKey: file('frontend.key'),
    internodeCert: file('internode.pem'),
    internodeKey: file('internode.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
  };
}

function isUsable(certs: ClusterCertificates): boolean {
  if (!Object.values(certs).every((file) => fs.existsSync(file))) return false;
  return [certs.caCert, certs.frontendCert, certs.internodeCert, certs.clientCert].every(
    (file) => Date.parse(new X509Certificate(fs.readFileSync(file)).validTo) - Date.now() > RENEW_WITHIN_MS,
  );
}

/**
 * The cluster's certificates in `dir`, made with openssl when missing or about to expire, else
 * the ones from last time (so the client's TEMPORAL_TLS_* files stay valid across restarts).
 * Made in a staging folder and renamed into place: `dir` never holds half a set.
 */
export function ensureClusterCertificates(
  dir: string,
  clusterName: string,
): { certs: ClusterCertificates; made: boolean } {
  const certs = clusterCertificatePaths(dir);
  if (isUsable(certs)) return { certs, made: false };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const stage = fs.mkdtempSync(`${dir}.new-`);
  try {
    makeCertificateAuthority(stage, {
      name: 'ca',
      commonName: `Thoughtline cluster ${clusterName} CA`,
      days: VALID_DAYS,
    });
    const sign = (name: string, commonName: string, extensions: string): void =>
      makeSignedCertificate(stage, { name, ca: 'ca', commonName, extensions, days: VALID_DAYS });
    sign('frontend', CLUSTER_SERVER_NAME, `extendedKeyUsage=serverAuth\n${SERVER_NAMES}`);
    sign('internode', CLUSTER_SERVER_NAME, `extendedKeyUsage=serverAuth,clientAuth\n${SERVER_NAMES}`);
    sign('client', 'thoughtline-client', 'extendedKeyUsage=clientAuth');
    fs.rmSync(path.join(stage, 'ca.srl'), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(stage, dir);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
  return { certs, made: true };
}
