#!/usr/bin/env bash
# The warnings of the last 15 minutes in one cluster, newest first, with curl and an API key.
#
#   SKIFF_API_KEY=… docs/scripts/recent-warnings.sh [clusterId]
#
# SKIFF_URL (default http://127.0.0.1:7733), SKIFF_WORKSPACE (default "default"), the cluster as
# the argument or SKIFF_CLUSTER (default "demo"). Create a key in the app's Security view or with
# POST /v1/auth/api-keys. The service filters (type, since) and pages; the script follows the
# Link header's rel="next" to the last page. JSON is read with node, which Skiff needs anyway.
set -euo pipefail

url=${SKIFF_URL:-http://127.0.0.1:7733}
workspace=${SKIFF_WORKSPACE:-default}
cluster=${1:-${SKIFF_CLUSTER:-demo}}
: "${SKIFF_API_KEY:?set SKIFF_API_KEY to an API key}"

path="/v1/workspaces/$workspace/observability/$cluster/kubernetes-events?type=WARNING&since=15m&limit=500"
count=0
while [ -n "$path" ]; do
  if ! response=$(curl -sS --fail-with-body -D - -H "X-API-Key: $SKIFF_API_KEY" "$url$path"); then
    printf '%s\n' "${response#*$'\r\n\r\n'}" >&2
    exit 1
  fi
  headers=${response%%$'\r\n\r\n'*}
  body=${response#*$'\r\n\r\n'}
  lines=$(printf '%s' "$body" | node -e '
    const events = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
    for (const e of events) {
      const o = e.involvedObject;
      const where = o.namespace ? `${o.namespace}/${o.kind}/${o.name}` : `${o.kind}/${o.name}`;
      console.log(`${e.lastTimestamp}  ${where}  ${e.reason}: ${e.message} (x${e.count})`);
    }')
  if [ -n "$lines" ]; then
    printf '%s\n' "$lines"
    count=$((count + $(printf '%s\n' "$lines" | wc -l)))
  fi
  # Link: <…>; rel="first", <…>; rel="next", … : the next page's relative URL, if any.
  path=$(printf '%s\n' "$headers" | tr -d '\r' | sed -n 's/^[Ll]ink: //p' | tr ',' '\n' |
    sed -n 's/^ *<\([^>]*\)>; *rel="next".*/\1/p')
done
echo "$count warnings in the last 15 minutes"
