import type { ViewerRole } from '../domain';
import type { EventBus } from '../events/event-bus';
import type { AgentClient } from '../client/agent-client';
import type { CurrentIdentity } from './auth/current-identity';
import type { Authenticator, Identity } from './auth/identity';
import type { DecisionSigner } from './signing/decision-signer';
import type { ChainStore } from '../store/chain-store';
import type { LoadedPolicy } from '../governance';
import type { LensFor } from './policy/lens-for';
import type { AgentCatalog } from './catalog/agent-catalog';
import type { TriggerTable } from './triggers/trigger-config';

/** What the caller may do with one run, once it is known to be theirs (their tenant's). */
export interface RunAccess {
  workflowId: string;
  tenant?: string;
  /** Set when the run is a sub-agent's own run: the workflow id of the run that started it. */
  parentRunId?: string;
}

/** Everything a route needs; built once by `createServer`. */
export interface ServerContext {
  agents: AgentClient;
  auth: Authenticator;
  /** A person's current roles from `auth`, for doors that act after the request (push): read again for each delivery. */
  currentIdentity: CurrentIdentity;
  bus: EventBus;
  signer?: DecisionSigner;
  /** The chain store reads are answered from when there is one (and it is not behind); Temporal otherwise. */
  store?: ChainStore;
  /** Rejects with ApiError `not_found` when the run does not exist or belongs to another tenant. */
  accessRun(identity: Identity, workflowId: string): Promise<RunAccess>;
  /** The view asked for (or the caller's default); ApiError `forbidden` when their roles do not allow it. */
  viewFor(identity: Identity, requested: string | undefined): ViewerRole;
  /** The visibility policy `serve` loaded (`--policy`, THOUGHTLINE_VISIBILITY_POLICY); absent: the built-in views. */
  policy?: LoadedPolicy;
  /** The lens for one viewer of one run (policy, deployment, their preferences); absent: no lens, as without a policy. */
  lensFor?: LensFor;
  /** The agents the protocol endpoints (A2A, MCP, AG-UI) offer. */
  catalog: AgentCatalog;
  /** Where `POST /v1/datasets/{name}/cases` appends cases (`serve --datasets DIR`), a folder per tenant (tenantDatasetFolder); absent: it answers 503. */
  datasetsDir?: string;
  /** The webhook triggers `POST /v1/triggers/{name}` answers (`serve --triggers FILE`); empty: none. */
  triggers?: TriggerTable;
}
