import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Registers the endpoint at `uri` with the server (the admin API's POST /deployments), which
 * discovers its services. `force` re-registers a URI already known. Retried briefly because a
 * fresh server may still be assigning partitions. Returns the deployment id.
 */
export async function registerDeployment(admin, uri, { attempts = 50 } = {}) {
  for (let i = 1; ; i++) {
    const res = await fetch(`${admin}/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri, force: true }),
    }).catch((err) => ({ ok: false, status: 0, text: async () => String(err) }));
    if (res.ok) return (await res.json()).id;
    const text = await res.text();
    if (i >= attempts) throw new Error(`registering ${uri} failed: ${res.status} ${text}`);
    await sleep(100);
  }
}

/** Forgets a deployment on a shared server once the script is done with it. */
export async function removeDeployment(admin, id) {
  await fetch(`${admin}/deployments/${id}?force=true`, { method: 'DELETE' }).catch(() => {});
}

/** Runs SQL on the server's introspection tables (POST /query on the admin port). */
export async function query(admin, sql) {
  const res = await fetch(`${admin}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: sql }),
  });
  if (!res.ok) throw new Error(`query failed: ${res.status} ${await res.text()}`);
  return (await res.json()).rows;
}
