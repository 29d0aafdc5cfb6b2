#!/bin/sh
# Makes sure BusyBox is installed, for tests/package/launcher.test.ts: it runs bin/dial.js under
# BusyBox `env`, as Alpine images (and most CI containers) do. Idempotent and quick when it is
# there already. Installs the Debian package when it can (root with apt-get, as in CI); where
# it cannot, it says so and the test fails only when CI is set (and skips, saying why, elsewhere).
command -v busybox >/dev/null 2>&1 && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-busybox: busybox is not installed and this is not root with apt-get; the BusyBox launcher test will not run" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
install() { apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=120 busybox >/dev/null; }
install 2>/dev/null || { apt-get update -qq -o DPkg::Lock::Timeout=120 >/dev/null && install; } || echo "ensure-busybox: apt-get could not install busybox" >&2
exit 0
