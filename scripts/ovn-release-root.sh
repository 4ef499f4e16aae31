#!/usr/bin/env bash
# Builds (once) and prints the path of a root filesystem holding one Debian suite's OVS and OVN:
# openvswitch-common, ovn-common, ovn-central and python3-openvswitch, and for the data-plane tests
# (testkit's Chassis) openvswitch-switch, ovn-host and ethtool. testkit runs that release's
# ovsdb-server, ovsdb-tool, ovn-northd, ovn-nbctl, ovn-sbctl, ovn-trace, ovs-vswitchd, ovs-vsctl and
# ovn-controller from it when OVNJ_RELEASE_ROOT (or -Dovnj.release.root) names it (docs/testing.md,
# "Other OVS/OVN releases").
#
#   scripts/ovn-release-root.sh trixie     # OVS 3.5 / OVN 25.03
#   scripts/ovn-release-root.sh sid        # OVS 4.0 / OVN 26.03
#
# The root is cached under $OVNJ_ROOTS (default /var/cache/ovnj-roots)/<suite> and reused while it
# is complete; a root built before the data-plane packages were added gets them installed in place,
# at the versions of its openvswitch-common and ovn-common (nothing it has is upgraded, so tests
# running from it meanwhile are not disturbed); --rebuild builds it again. Needs root (mmdebstrap's root mode) and the Debian archive.
# The last line of stdout is the root's path; progress goes to stderr.
set -euo pipefail

usage() { echo "usage: $0 [--rebuild] <debian-suite>" >&2; exit 2; }
rebuild=false
if [ "${1:-}" = --rebuild ]; then rebuild=true; shift; fi
suite=${1:-}
[ -n "$suite" ] || usage
case "$suite" in *[!a-z0-9-]*) echo "ovn-release-root: bad suite name: $suite" >&2; exit 2 ;; esac

cache=${OVNJ_ROOTS:-/var/cache/ovnj-roots}
root="$cache/$suite"
# Written last, so a root whose build was interrupted is never taken for a finished one.
stamp="$root/.ovnj-root-complete"
mirror=${OVNJ_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# Refuses to remove a directory that anything is mounted in: rm -rf would descend into the mount.
remove_root() {
  if awk -v r="$root" '$2 == r || index($2, r "/") == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
    echo "ovn-release-root: something is mounted under $root; unmount it first" >&2
    exit 1
  fi
  rm -rf --one-file-system "$root"
}

data_plane_packages="openvswitch-switch ovn-host ethtool"
# Real files, not /usr/sbin/ovs-vswitchd: that is an absolute symlink, which outside a chroot
# resolves to the machine's own.
has_data_plane() {
  [ -x "$root/usr/lib/openvswitch-switch/ovs-vswitchd" ] && [ -x "$root/usr/bin/ovn-controller" ] && [ -x "$root/usr/sbin/ethtool" ]
}

# Installs the data-plane packages into an existing root by chroot, services kept down by a
# policy-rc.d that refuses every start (removed afterwards); the apt lists fetched for it are removed
# again, as mmdebstrap leaves none.
add_data_plane() {
  local ovs_version ovn_version policy="$root/usr/sbin/policy-rc.d" rc=0
  ovs_version=$(chroot "$root" dpkg-query -W -f='${Version}' openvswitch-common)
  ovn_version=$(chroot "$root" dpkg-query -W -f='${Version}' ovn-common)
  echo "ovn-release-root: adding $data_plane_packages to $root (ovs $ovs_version, ovn $ovn_version)" >&2
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod 755 "$policy"
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Check-Valid-Until=false update -qq >&2 &&
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "openvswitch-switch=$ovs_version" "ovn-host=$ovn_version" ethtool >&2 || rc=$?
  rm -f "$policy"
  chroot "$root" apt-get clean
  rm -rf "$root"/var/lib/apt/lists/*_*
  return $rc
}

if [ -f "$stamp" ] && ! $rebuild; then
  if ! has_data_plane; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "ovn-release-root: $root lacks $data_plane_packages and adding them needs root" >&2
      exit 1
    fi
    # Two runs asking at once: one installs, the other waits and finds the packages there.
    exec 9> "$cache/.$suite.lock"
    flock 9
    has_data_plane || add_data_plane || { echo "ovn-release-root: cannot add $data_plane_packages to $root" >&2; exit 1; }
    flock -u 9
  fi
  echo "ovn-release-root: reusing $root ($(cat "$stamp"))" >&2
  echo "$root"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ovn-release-root: needs root (mmdebstrap builds the root filesystem in root mode)" >&2
  exit 1
fi
if ! command -v mmdebstrap >/dev/null 2>&1; then
  echo "ovn-release-root: installing mmdebstrap" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

[ -e "$root" ] && remove_root
mkdir -p "$cache"
start=$(date +%s)
echo "ovn-release-root: building $suite into $root from $mirror" >&2
# sid's Release file is re-signed often and may look expired next to a snapshot-dated host;
# Check-Valid-Until off keeps the build working there (the signature is still checked).
# --variant=apt: just Essential plus apt; the OVS/OVN packages pull in what they need.
mmdebstrap --variant=apt --mode=root \
  --aptopt='Acquire::Check-Valid-Until "false"' \
  --aptopt='APT::Install-Recommends "false"' \
  --include=openvswitch-common,ovn-common,ovn-central,python3-openvswitch,${data_plane_packages// /,} \
  "$suite" "$root" "$mirror" >&2
ovs=$(chroot "$root" ovsdb-server --version | awk 'NR == 1 { print $NF }')
ovn=$(chroot "$root" ovn-nbctl --version | awk 'NR == 1 { print $NF }')
echo "$suite ovs $ovs ovn $ovn, built in $(( $(date +%s) - start )) s" > "$stamp"
echo "ovn-release-root: $(cat "$stamp")" >&2
echo "$root"
