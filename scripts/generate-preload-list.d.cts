/** Types of generate-preload-list.cjs, for the test that checks its output. */
export declare const OUTPUT: string;
export declare const WORKFLOWS_PATH: string;
export declare function workflowModuleGraph(workflowsPath?: string): Promise<string[]>;
export declare function renderModuleList(modules: readonly string[], output?: string): string;
export declare function writeModuleList(workflowsPath?: string, output?: string): Promise<boolean>;
