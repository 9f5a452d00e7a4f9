#!/bin/sh
# Shim with the original hook name (DECISIONS D1): settings that wire scripts/hooks/role-state-inject.sh keep working.
here=$(cd "$(dirname "$0")" && pwd)
bin=${MOGUI_BIN:-$(command -v mogui || echo "$here/../../dist/mogui")}
exec "$bin" hook role-state-inject "$@"
