import type { AddressInfo } from 'node:net';
import type { AgentCard } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { A2aCore } from './a2a-sdk';
import type { CatalogAgent } from '../catalog/agent-catalog';

/** The JSON-RPC endpoint of a catalogue agent, under the server's base URL. */
export const a2aEndpointPath = (agent: string): string => `/a2a/${encodeURIComponent(agent)}`;

/** The card's version for an agent with none (the generic agent): the protocol surface's own. */
const GENERIC_VERSION = '1.0.0';

/** Where the scheme is described to people reading the card. */
const BEARER_DESCRIPTION =
  'The same bearer token as the HTTP API (the token file or OIDC of `thoughtline serve`): "Authorization: Bearer <token>".';

/**
 * A catalogue agent's A2A card (protocol v1.0, with the v0.3 JSON-RPC binding at the same URL):
 * one skill from its definition (description, tools as tags, example tasks), streaming always,
 * push notifications only when the server has an allow-list for webhooks, and the bearer scheme.
 * `baseUrl` has no trailing slash.
 */
export function agentCardOf(agent: CatalogAgent, baseUrl: string, pushNotifications: boolean): AgentCard {
  const url = `${baseUrl}${a2aEndpointPath(agent.name)}`;
  return {
    name: agent.name,
    provider: undefined,
    description: agent.description,
    version: agent.version ?? GENERIC_VERSION,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    capabilities: { streaming: true, pushNotifications, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { description: BEARER_DESCRIPTION, scheme: 'Bearer', bearerFormat: '' },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: agent.name,
        name: agent.name,
        description: agent.description,
        tags: agent.tools.length > 0 ? [...agent.tools] : ['react-agent'],
        examples: agent.examples.map((example) => example.task),
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

/** Why a card cannot name this server's address: it listens on every interface and none is configured. */
export const UNKNOWN_PUBLIC_URL =
  "This server listens on every interface, so it cannot tell which address callers reach it at, and a card never takes it from the request (the Host header is the caller's to write). Set THOUGHTLINE_PUBLIC_URL to that address (e.g. https://agents.example.com) and restart.";

/**
 * The base URL a card advertises: THOUGHTLINE_PUBLIC_URL when set, else the address the server
 * listens on (plain http, as `serve` listens), never anything the request carries: a card is
 * public and cached, so a forged Host would point every later reader at the forger.
 * `undefined` when the server listens on a wildcard address (0.0.0.0, ::) and no URL is set.
 */
export function cardBaseUrl(publicUrl: string | undefined, listening: AddressInfo | string | null): string | undefined {
  if (publicUrl) return publicUrl;
  if (!listening || typeof listening === 'string') return undefined;
  const { address, port } = listening;
  if (address === '0.0.0.0' || address === '::' || address === '') return undefined;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/** The card as the protocol's JSON. */
export const agentCardJson = (core: A2aCore, card: AgentCard): unknown => core.AgentCard.toJSON(card);
