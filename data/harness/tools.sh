#!/usr/bin/env bash
# Installs what a recording needs on a Debian machine with Go, as root or
# through sudo, and prints the version of every program it found. Running it
# again changes nothing that is already there.
#
#   bash tools.sh                  # packages, k6, bombardier; checks wrk2
#   bash tools.sh /path/to/wrk     # also installs that wrk2 binary as
#                                  # /usr/local/bin/wrk2 (after checking it)
#
# What it installs:
#   - Debian packages: postgresql, mariadb-server (no service is started:
#     the harness starts its own servers in fresh folders), apache2-utils
#     (ab), nodejs and npm (node-pg, node-mysql), python3-uvicorn and
#     python3-asyncpg (py-asyncpg), php-fpm, php-pgsql and nginx-light
#     (php-pdo), and libssl-dev, zlib1g-dev, make and gcc, which wrk2's
#     own Makefile needs;
#   - k6 and bombardier, at the versions below, with `go install` into
#     $GOBIN (default: /usr/local/bin as root, else Go's own bin folder,
#     $(go env GOPATH)/bin, where the harness also looks for them);
#   - the npm packages of node-pg and node-mysql, with `npm ci` in a
#     temporary copy of each folder: this fills npm's cache and checks the
#     lock files (a recording runs `npm ci` again in its own work folder).
#
# wrk2 does not come from any package registry. Build it yourself from its
# public repository, giltene/wrk2, at commit 44a94c1 (its Makefile makes a
# binary named `wrk`), and either copy it to /usr/local/bin/wrk2 or give its
# path as this script's argument. The script checks that the binary is
# wrk2 (a wrk 4.0.0 with -R/--rate) and fails when there is none.
set -euo pipefail

K6_VERSION=v1.8.1
BOMBARDIER_VERSION=v1.2.6
WRK2_DEST=/usr/local/bin/wrk2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "tools.sh: run as root or install sudo" >&2; exit 1; }
  sudo=sudo
fi
say() { printf 'tools.sh: %s\n' "$*" >&2; }
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

# --- Debian packages ------------------------------------------------------
packages=(postgresql mariadb-server apache2-utils nodejs npm
  python3-uvicorn python3-asyncpg php-fpm php-pgsql nginx-light
  libssl-dev zlib1g-dev make gcc)
have_pkg() {
  [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}
need=()
for p in "${packages[@]}"; do
  case $p in
    nodejs) command -v node >/dev/null && continue ;; # a Node.js from elsewhere will do
    npm) command -v npm >/dev/null && continue ;;
    nginx-light) { have_pkg nginx || have_pkg nginx-full; } && continue ;;
  esac
  have_pkg "$p" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  t0=$(date +%s)
  export DEBIAN_FRONTEND=noninteractive
  # A policy-rc.d that answers 101 keeps the packages' scripts from starting
  # PostgreSQL's and MariaDB's system services; it is removed again unless
  # it was already there.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    trap '$sudo rm -f "$policy"' EXIT
  fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  say "apt-get installed ${need[*]} in $(elapsed "$t0")"
fi

# --- k6 and bombardier ----------------------------------------------------
# go_version BIN prints the module version a Go binary was built at.
go_version() {
  [ -x "$1" ] && go version -m "$1" 2>/dev/null | awk '$1 == "mod" { print $3; exit }'
}
go_tool() { # name module version
  local bin="$GOBIN/$1"
  if [ "$(go_version "$bin")" = "$3" ]; then
    return
  fi
  local t0
  t0=$(date +%s)
  GOFLAGS=-mod=mod go install "$2@$3"
  say "go install $2@$3 in $(elapsed "$t0")"
}
command -v go >/dev/null || { say "Go is needed (go install k6, bombardier; go run ./cmd/record)"; exit 1; }
if [ -z "${GOBIN:-}" ]; then
  if [ "$(id -u)" = 0 ]; then GOBIN=/usr/local/bin; else GOBIN=$(go env GOPATH)/bin; fi
fi
export GOBIN
mkdir -p "$GOBIN"
go_tool k6 go.k6.io/k6 "$K6_VERSION"
go_tool bombardier github.com/codesenberg/bombardier "$BOMBARDIER_VERSION"

# --- npm packages of the Node stacks --------------------------------------
for s in node-pg node-mysql; do
  tmp=$(mktemp -d)
  cp "$here/servers/$s/package.json" "$here/servers/$s/package-lock.json" "$tmp/"
  t0=$(date +%s)
  (cd "$tmp" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >/dev/null)
  rm -rf "$tmp"
  say "npm ci of servers/$s in $(elapsed "$t0")"
done

# --- wrk2 -----------------------------------------------------------------
# is_wrk2 BIN: a wrk 4.0.0 whose usage has wrk2's -R/--rate.
is_wrk2() {
  [ -x "$1" ] || return 1
  local usage
  usage=$("$1" -v 2>&1 || true)
  grep -q '^wrk 4\.0\.0' <<<"$usage" && grep -q -- '--rate' <<<"$usage"
}
if [ $# -gt 0 ]; then
  if ! is_wrk2 "$1"; then
    say "$1 is not a wrk2 binary (wanted wrk 4.0.0 with -R/--rate, built from giltene/wrk2 44a94c1)"
    exit 1
  fi
  if ! cmp -s "$1" "$WRK2_DEST"; then
    $sudo install -m 755 "$1" "$WRK2_DEST"
    say "installed $1 as $WRK2_DEST"
  fi
fi
wrk2_ok=1
if ! is_wrk2 "$WRK2_DEST"; then
  wrk2_ok=0
fi

# --- what was found -------------------------------------------------------
first() { "$@" 2>&1 | head -n 1 || true; }
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fpm=$(ls /usr/sbin/php-fpm* 2>/dev/null | sort -V | tail -n 1)
echo "go          $(go env GOVERSION)"
echo "postgresql  $(first "$pg_bin/postgres" --version)"
echo "mariadb     $(first /usr/sbin/mariadbd --version)"
echo "wrk2        $( [ $wrk2_ok = 1 ] && first "$WRK2_DEST" -v || echo "MISSING: build giltene/wrk2 44a94c1 and install it as $WRK2_DEST")"
echo "k6          $(go_version "$GOBIN/k6")"
echo "bombardier  $(go_version "$GOBIN/bombardier")"
echo "ab          $(first ab -V | sed 's/, Copyright.*//')  (apache2-utils $(dpkg-query -W -f='${Version}' apache2-utils))"
echo "node        $(node --version), npm $(npm --version)"
echo "python3     $(/usr/bin/python3 -c 'import sys, asyncpg, uvicorn; print(sys.version.split()[0], "asyncpg", asyncpg.__version__, "uvicorn", uvicorn.__version__)')"
echo "php-fpm     $(first "$fpm" -v)"
echo "nginx       $(/usr/sbin/nginx -v 2>&1)"
[ $wrk2_ok = 1 ] || exit 1
