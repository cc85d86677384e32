#!/bin/sh
# Debian packages the kernel build and the QEMU harness need.
# usage: install-deps.sh [KERNEL]   KERNEL: 6.1 (default) or 6.12; only the
# source package of the kernel asked for is installed.
set -eu
PKGS="build-essential bc flex bison libelf-dev libssl-dev xz-utils cpio
      linux-source-${1:-6.1} qemu-system-x86 busybox-static trace-cmd e2fsprogs"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "kernel/install-deps: installing$missing" >&2
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
