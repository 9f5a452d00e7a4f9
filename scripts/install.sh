#!/bin/sh
# Install the mogui release binary for this machine, verified against the release's SHA256SUMS (D36).
#
#   curl -fsSLo install.sh <base>/install.sh && sh install.sh --from <base>
#   sh scripts/install.sh [--from <url|dir>] [--prefix <dir>] [--version <v>] [--target <t>]
#
# --from (else $MOGUI_RELEASE_URL): where the release files are: an http(s) base URL, a file:// URL or a local
# directory holding mogui-<version>-<target>.tar.gz and SHA256SUMS. --prefix (default ~/.local): installs
# <prefix>/bin/mogui. --version picks one version when SHA256SUMS lists several (default: the only one).
# --target overrides the detected target (linux-x64, linux-x64-musl, linux-arm64, darwin-x64, darwin-arm64).
# On any failure (no such target, download, checksum mismatch) nothing is installed: one line on stderr, exit 1
# (exit 2 for a bad argument). POSIX sh only: it runs under dash, busybox sh and macOS /bin/sh.
set -u

die() {
  echo "install.sh: $2" >&2
  exit "$1"
}

from=${MOGUI_RELEASE_URL:-}
prefix="${HOME:-}/.local"
version=""
target=""
while [ $# -gt 0 ]; do
  case "$1" in
    --from) [ $# -ge 2 ] || die 2 "--from needs a value"; from=$2; shift 2 ;;
    --from=*) from=${1#--from=}; shift ;;
    --prefix) [ $# -ge 2 ] || die 2 "--prefix needs a value"; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --version) [ $# -ge 2 ] || die 2 "--version needs a value"; version=$2; shift 2 ;;
    --version=*) version=${1#--version=}; shift ;;
    --target) [ $# -ge 2 ] || die 2 "--target needs a value"; target=$2; shift 2 ;;
    --target=*) target=${1#--target=}; shift ;;
    # The header comment only: from line 2 up to the first line that is not a comment.
    -h | --help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0" 2>/dev/null; exit 0 ;;
    *) die 2 "unknown argument: $1 (see --help)" ;;
  esac
done
[ -n "$from" ] || die 2 "no release location: pass --from <url|dir> or set MOGUI_RELEASE_URL"
[ -n "$prefix" ] || die 2 "--prefix is empty (and HOME is unset)"

detect_target() {
  os=$(uname -s 2>/dev/null)
  arch=$(uname -m 2>/dev/null)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) die 1 "unsupported OS '$os': download the archive for your platform from the release page" ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die 1 "unsupported architecture '$arch'" ;;
  esac
  # An x64 shell under Rosetta on Apple silicon: the native binary is the right one.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null)" = 1 ]; then
    arch=arm64
  fi
  libc=""
  if [ "$os" = linux ]; then
    for f in /lib/ld-musl-*; do [ -e "$f" ] && libc=-musl; done
    if [ -z "$libc" ] && command -v ldd >/dev/null 2>&1 && ldd --version 2>&1 | grep -qi musl; then libc=-musl; fi
  fi
  echo "$os-$arch$libc"
}

# fetch <name> <dest>: copy one release file from $from.
fetch() {
  case "$from" in
    http://* | https://*)
      url="${from%/}/$1"
      if command -v curl >/dev/null 2>&1; then
        curl -fsL --retry 2 -o "$2" "$url" 2>/dev/null || die 1 "download failed: $url"
      elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$url" 2>/dev/null || die 1 "download failed: $url"
      else
        die 1 "neither curl nor wget is installed; download $url by hand"
      fi
      ;;
    *)
      dir=${from#file://}
      [ -f "${dir%/}/$1" ] || die 1 "not found: ${dir%/}/$1"
      cp "${dir%/}/$1" "$2" || die 1 "cannot copy ${dir%/}/$1"
      ;;
  esac
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 "$1" | sed 's/^.*= *//'
  else
    die 1 "no sha256sum, shasum or openssl to verify the download with"
  fi
}

[ -n "$target" ] || target=$(detect_target) || exit 1
tmp=$(mktemp -d 2>/dev/null || mktemp -d -t mogui-install) || die 1 "cannot create a temp directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

fetch SHA256SUMS "$tmp/SHA256SUMS"
# The archive for this target: `<sha256>  mogui-<version>-<target>.tar.gz`.
lines=$(grep -E "^[0-9a-f]{64}  mogui-${version:-[0-9][^ ]*}-$target\\.tar\\.gz\$" "$tmp/SHA256SUMS")
[ -n "$lines" ] || die 1 "no mogui${version:+ $version} archive for $target in $from/SHA256SUMS"
[ "$(echo "$lines" | wc -l)" -eq 1 ] || die 1 "SHA256SUMS lists several versions for $target; pick one with --version"
want=${lines%% *}
archive=${lines#*  }
stem=${archive%.tar.gz}

fetch "$archive" "$tmp/$archive"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] || die 1 "checksum mismatch for $archive: expected $want, got $got; nothing installed"
mkdir "$tmp/x" && tar -xzf "$tmp/$archive" -C "$tmp/x" 2>/dev/null || die 1 "cannot unpack $archive"
[ -f "$tmp/x/$stem/mogui" ] || die 1 "$archive does not hold $stem/mogui"
bindir="${prefix%/}/bin"
mkdir -p "$bindir" 2>/dev/null || die 1 "cannot create $bindir"
# Stage beside the destination, prove it runs here, then rename: a running mogui is never half-overwritten, and a
# binary that cannot start (wrong target, a noexec mount) never replaces a working one.
new="$bindir/.mogui.new.$$"
cp "$tmp/x/$stem/mogui" "$new" 2>/dev/null && chmod 755 "$new" || {
  rm -f "$new"
  die 1 "cannot write $bindir"
}
if ! "$new" --version >/dev/null 2>&1; then
  rm -f "$new"
  die 1 "the unpacked binary does not run on this machine (target $target); nothing installed"
fi
mv -f "$new" "$bindir/mogui" || {
  rm -f "$new"
  die 1 "cannot write $bindir/mogui"
}

echo "installed $("$bindir/mogui" --version) to $bindir/mogui"
case ":${PATH:-}:" in
  *":$bindir:"*) run=mogui ;;
  *)
    run="$bindir/mogui"
    echo "($bindir is not on PATH; add it: export PATH=\"$bindir:\$PATH\")"
    ;;
esac
echo "next:"
echo "  $run config init    # the instance config files in \$MOGUI_HOME/config (~/.mogui/config); never overwrites"
echo "  $run demo           # worker-reap end to end against the built-in Orca simulator"
