import type { AgentCard } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { Client } from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import { loadA2aClientSdk } from './a2a-client-sdk';
import { FailureType } from '../../domain';
import { A2aBoundaryError } from './a2a-failure';

const badCard = (message: string, cause?: unknown) =>
  new A2aBoundaryError(FailureType.RemoteAgentBadCard, message, cause === undefined ? undefined : { cause });

/** A card the client can use: a name and a JSON-RPC interface (the one transport this worker speaks). */
function checkedCard(card: unknown, cardUrl: string): AgentCard {
  const c = card as Partial<AgentCard> | undefined;
  if (!c || typeof c !== 'object' || typeof c.name !== 'string' || !Array.isArray(c.supportedInterfaces))
    throw badCard(`the agent card at ${cardUrl} is not an A2A agent card (no name or supportedInterfaces).`);
  if (!c.supportedInterfaces.some((i) => i?.protocolBinding === 'JSONRPC' && typeof i.url === 'string'))
    throw badCard(`the agent card at ${cardUrl} offers no JSON-RPC interface, the only transport this worker uses.`);
  return c as AgentCard;
}

/**
 * Reads the card at `cardUrl` and makes a JSON-RPC client for the interface it names, both
 * through `fetchImpl` (the guarded fetch: the endpoint the card names is checked like the card).
 * v0.3 cards and endpoints are understood too. Anything wrong with the card is non-retryable.
 */
export async function connectRemoteAgent(cardUrl: string, fetchImpl: typeof fetch): Promise<Client> {
  const { client: sdk, core } = await loadA2aClientSdk();
  const { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } = sdk;
  const res = await fetchImpl(cardUrl, {
    headers: { [core.A2A_VERSION_HEADER]: core.A2A_PROTOCOL_VERSION, accept: 'application/json' },
  });
  if (!res.ok) throw badCard(`the agent card at ${cardUrl} answered ${res.status}.`);
  let json: unknown;
  try {
    json = await res.json();
  } catch (err) {
    throw badCard(`the agent card at ${cardUrl} is not JSON.`, err);
  }
  const legacyCompat = { enabled: true };
  const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
  let card: AgentCard;
  try {
    card = checkedCard(resolver.normalizeAgentCard(json), cardUrl);
  } catch (err) {
    if (err instanceof A2aBoundaryError) throw err;
    throw badCard(`the agent card at ${cardUrl} could not be read: ${(err as Error).message}`, err);
  }
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat })],
    cardResolver: resolver,
  });
  try {
    return await factory.createFromAgentCard(card);
  } catch (err) {
    throw badCard(`no client could be made from the agent card at ${cardUrl}: ${(err as Error).message}`, err);
  }
}
