#!/bin/sh
# Installs, from Debian's archive, every package the build and the tests need
# and that this machine lacks.  Safe to run again; does nothing when all is there.
set -eu
PKGS="build-essential cmake pkg-config check libjson-c-dev uthash-dev
      libtraceevent-dev libtracecmd-dev libtracefs-dev
      zlib1g-dev liblzma-dev libzstd-dev gzip zstd
      python3 python3-jsonschema python3-scipy perl strace util-linux xz-utils scdoc man-db
      time valgrind abigail-tools
      prometheus prometheus-node-exporter python3-prometheus-client
      libmicrohttpd-dev"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing$missing" >&2
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
