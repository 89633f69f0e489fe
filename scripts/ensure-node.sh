# Puts Node 22.13 or later (what the CLI and the suite need; package.json's engines names the library's
# floor, 20.3) first on PATH. Source it from bash:
#   source scripts/ensure-node.sh
# Run as `bash scripts/ensure-node.sh` (npm run demo, dev and worker do) it only installs that Node;
# the thoughtline command then finds it in .thoughtline/node and runs itself on it (src/cli/bin.ts).
# When the node on PATH is older, it installs Node $THOUGHTLINE_NODE_VERSION from the npm registry
# into <project>/.thoughtline/node/<version>, once: the package node-<platform>-<arch> (what the
# registry's `node` package installs), which holds the binary and its C headers and runs no script.
# Either way it points node-gyp at the headers of the node it leaves first, so a native build never
# downloads them and never picks up another Node's. npm stays the one on PATH and runs on that node.
# Nothing is fetched from anywhere but the npm registry.

THOUGHTLINE_NODE_VERSION="${THOUGHTLINE_NODE_VERSION:-22.23.3}"

thoughtline_node_ok() {
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 13) ? 0 : 1)' 2>/dev/null
}

if ! thoughtline_node_ok; then
  thoughtline_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  thoughtline_pkg="node-$(node -p 'process.platform + "-" + process.arch')@$THOUGHTLINE_NODE_VERSION"
  thoughtline_prefix="$thoughtline_root/.thoughtline/node/$THOUGHTLINE_NODE_VERSION"
  thoughtline_dir="$thoughtline_prefix/node_modules/${thoughtline_pkg%@*}"
  if [ ! -x "$thoughtline_dir/bin/node" ]; then
    echo "ensure-node: $(node --version 2>/dev/null || echo 'no node') is older than 22.13; installing $thoughtline_pkg from the npm registry" >&2
    mkdir -p "$thoughtline_prefix"
    npm install --prefix "$thoughtline_prefix" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
      --loglevel=error "$thoughtline_pkg" >&2 || return 1 2>/dev/null || exit 1
  fi
  export PATH="$thoughtline_dir/bin:$PATH"
  thoughtline_node_ok || { echo "ensure-node: $thoughtline_dir/bin/node does not run" >&2; return 1 2>/dev/null || exit 1; }
fi

# The headers of the node now first on PATH: in its prefix (the installers and the npm packages both
# ship include/node). Without them node-gyp downloads headers, which fails offline. node-gyp reads
# npm_package_config_node_gyp_nodedir before npm_config_nodedir (a user's `nodedir` in .npmrc), and
# npm 11 does not warn about it as an unknown npm setting.
thoughtline_nodedir="$(node -p 'require("path").resolve(process.execPath, "../..")')"
if [ -f "$thoughtline_nodedir/include/node/node_version.h" ]; then
  export npm_package_config_node_gyp_nodedir="$thoughtline_nodedir"
fi
unset thoughtline_root thoughtline_pkg thoughtline_prefix thoughtline_dir thoughtline_nodedir
