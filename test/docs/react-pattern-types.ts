/** The shapes of docs/react-pattern.md's files, for the test that imports them at run time. */
import type { AgentClient, AgentResult, AgentWorkerOptions } from '../../src';
import type { Worker } from '@temporalio/worker';

export declare function codeAnalysisWorker(root: string, options?: Partial<AgentWorkerOptions>): Promise<Worker>;
export declare function findAuthenticationCode(agents: AgentClient): Promise<AgentResult>;
