#!/usr/bin/env bash
# Installs what ovnj's tests, demo and benchmarks run against: ovsdb-server, ovsdb-tool,
# ovs-appctl, ovn-nbctl, the OVN NB schema, the OVS Python IDL, openssl, and Maven; and for the
# data-plane tests (testkit's Chassis) ovs-vswitchd, ovn-controller and ethtool, installed without
# starting their services.
# Does nothing when everything is already there. Used by .ci/run, ./ovnj and the README.
set -euo pipefail

need=()
command -v ovsdb-server >/dev/null 2>&1 || [ -x /usr/sbin/ovsdb-server ] || need+=(openvswitch-common)
command -v ovsdb-tool   >/dev/null 2>&1 || need+=(openvswitch-common)
command -v ovn-nbctl    >/dev/null 2>&1 || need+=(ovn-common ovn-central)
[ -f /usr/share/ovn/ovn-nb.ovsschema ] || need+=(ovn-central)
/usr/bin/python3 -c 'import ovs.db.idl' >/dev/null 2>&1 || need+=(python3-openvswitch)
command -v openssl      >/dev/null 2>&1 || need+=(openssl)
command -v mvn          >/dev/null 2>&1 || need+=(maven)
# The data plane: the chassis runs its own ovs-vswitchd and ovn-controller in a namespace of its own.
command -v ovs-vswitchd >/dev/null 2>&1 || [ -x /usr/sbin/ovs-vswitchd ] || need+=(openvswitch-switch)
command -v ovn-controller >/dev/null 2>&1 || [ -x /usr/bin/ovn-controller ] || need+=(ovn-host)
command -v ethtool      >/dev/null 2>&1 || [ -x /usr/sbin/ethtool ] || need+=(ethtool)
command -v ip           >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || need+=(iproute2)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "install-ovs: need root (or sudo) to install: ${need[*]}" >&2
    exit 1
  fi
fi

echo "install-ovs: installing ${need[*]}" >&2
# openvswitch-switch and ovn-host would start the machine's own ovs-vswitchd and ovn-controller;
# the tests start their own, so services stay down during the install: a policy-rc.d that refuses
# every start (exit 101), removed afterwards unless one was already there.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
  printf '#!/bin/sh\n# scripts/install-ovs.sh: no service starts while packages install\nexit 101\n' \
    | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod 755 /usr/sbin/policy-rc.d
fi
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# ovn-central's maintainer scripts may try to start services; a container without an init system
# refuses politely, and the binaries are all we need.
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  openvswitch-common ovn-common ovn-central python3-openvswitch openssl "${need[@]}" >/dev/null
# The packaged servers, if a service manager started them, would hold the default ports; tests use
# their own servers on free ports, so stop the packaged ones to keep the machine quiet.
for svc in ovn-central ovn-northd ovn-ovsdb-server-nb ovn-ovsdb-server-sb ovn-host ovn-controller openvswitch-switch; do
  $sudo service "$svc" stop >/dev/null 2>&1 || true
done
echo "install-ovs: done ($(ovsdb-server --version | head -1))" >&2
