/**
 * Calls the agent's `run` handler through the ingress and waits for its result (a plain HTTP
 * request/response; @restatedev/restate-sdk-clients is not installed). Returns the handler's
 * output and the invocation id the ingress reports.
 */
export async function invokeRun(ingress, serviceName, input) {
  const res = await fetch(`${ingress}/${serviceName}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`invocation ${input.runId} failed: ${res.status} ${text}`);
  return { output: JSON.parse(text), invocationId: res.headers.get('x-restate-id') };
}
