/** How a person opens one case's run: the CLI command and the viewer's page. */
export interface RunLinks {
  chain: string;
  /** A full URL with a viewer base, else the viewer's path to put after `thoughtline serve`'s address. */
  viewer: string;
  viewerIsUrl: boolean;
}

/**
 * The links of a run. `viewerBase` is a `thoughtline serve` address (THOUGHTLINE_SERVER_URL);
 * without one, the path form `/#/runs/<id>` is given.
 */
export function runLinks(workflowId: string, viewerBase?: string): RunLinks {
  const route = `/#/runs/${encodeURIComponent(workflowId)}`;
  return {
    chain: `thoughtline chain ${workflowId}`,
    viewer: viewerBase ? `${viewerBase.replace(/\/+$/, '')}${route}` : route,
    viewerIsUrl: Boolean(viewerBase),
  };
}
