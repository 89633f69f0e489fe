# Thoughtline image for the worker and `thoughtline serve` (used by docker-compose.yml; works standalone too):
#   docker build -t thoughtline .
#   docker run --rm -e TEMPORAL_ADDRESS=<temporal-host>:7233 -e ANTHROPIC_API_KEY thoughtline
#
# Debian (glibc), not Alpine: the Temporal worker loads a prebuilt native Rust addon
# (@temporalio/core-bridge) that is built for glibc only.
ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: compile TypeScript to dist/ --------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app

# Dependencies first so this layer is cached until package*.json changes. --ignore-scripts skips
# the "prepare" script (it runs the build, and src/ is not copied yet); no dependency needs its
# install script here: native parts (core-bridge, @swc/core) ship prebuilt per platform.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts

COPY tsconfig.json tsconfig.build.json ./
# The build's own steps: the preload list from the workflow bundle's graph, and pruning dist/.
COPY scripts/generate-preload-list.cjs scripts/prune-dist.cjs scripts/vendor-sql-grammars.cjs ./scripts/
COPY src ./src
RUN npm run build

# ---- runtime: production dependencies + dist/ ----------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app

# Production dependencies only. Then drop the Temporal core-bridge binaries built for other
# platforms (macOS, Windows, the other Linux arch; about 110 MB), keeping the one this platform
# loads (the package's own target-name logic), and prove that it still loads.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts \
 && npm cache clean --force \
 && keep="$(node -p "require('@temporalio/core-bridge/common.js').getPrebuiltTargetName()")" \
 && find node_modules/@temporalio/core-bridge/releases -mindepth 1 -maxdepth 1 ! -name "$keep" -exec rm -rf {} + \
 && node -e "require('@temporalio/core-bridge')"

COPY --from=build /app/dist ./dist
# The SQL grammars the approval rules parse with (copied from node-sql-parser at build time).
COPY --from=build /app/vendor ./vendor
# The production topology's optional peers, which a default install leaves out: pg (the chain
# store), redis (the event bus), the MCP SDK and OpenTelemetry export, at the ranges the package
# names (src/packaging/optional-peers.ts).
RUN npm install --no-save --omit=dev --ignore-scripts --no-audit --no-fund \
      $(node -p "Object.entries(require('./dist/packaging/optional-peers.js').OPTIONAL_PEERS).map(([n, r]) => n + '@' + r).join(' ')") \
 && npm cache clean --force
# The browser viewer `thoughtline serve` serves at / (plain files, no build step).
COPY viewer ./viewer

# Code stays root-owned and read-only to the process; the only writable place is Thoughtline's
# local state directory (.thoughtline/, next to package.json).
RUN mkdir -p /app/.thoughtline && chown node:node /app/.thoughtline
USER node

# Defaults match the compose file; override with -e. Secrets (ANTHROPIC_API_KEY) are never baked in.
ENV TEMPORAL_NAMESPACE=default \
    THOUGHTLINE_TASK_QUEUE=thoughtline

CMD ["node", "dist/cli/main.js", "worker"]
