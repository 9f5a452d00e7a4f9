#!/bin/sh
# Shim with the original script name (DECISIONS D1): onboarding documents that quote scripts/measure-product-path-guard.sh keep working.
here=$(cd "$(dirname "$0")" && pwd)
bin=${MOGUI_BIN:-$(command -v mogui || echo "$here/../dist/mogui")}
exec "$bin" measure-product-path-guard "$@"
