#!/usr/bin/env bash
# Peer driver: ovn-nbctl in daemon mode.
#
#   nbctl_daemon.sh bulk DB N ROUTER SWITCH
#
# Starts `ovn-nbctl --detach` against DB, then for every item runs one ovn-nbctl
# invocation through the daemon's control socket that creates a load balancer
# (1 VIP, 3 backends) and attaches it to ROUTER and SWITCH (lb-add -- lr-lb-add
# -- ls-lb-add, one transaction). Kills the daemon at the end and prints one
# JSON object: wall_s, cpu_s (daemon + the ovn-nbctl client processes),
# daemon_cpu_s, clients_cpu_s.
set -euo pipefail

mode=${1:?mode}; db=${2:?db}; n=${3:?n}; router=${4:?router}; switch=${5:?switch}
[ "$mode" = bulk ] || { echo "unknown mode $mode" >&2; exit 2; }

tick=$(getconf CLK_TCK)
dir=$(mktemp -d /tmp/ovnj-bench-nbctl.XXXXXX)
pidfile=$dir/nbctl.pid

proc_cpu_ticks() { # utime+stime of a pid; fields after the ")" of the comm
  local s; s=$(cat "/proc/$1/stat"); s=${s##*) }
  set -- $s; echo $(( ${12} + ${13} ))
}
children_cpu_ticks() { # cutime+cstime of this shell (waited-for children)
  local s; s=$(cat "/proc/$$/stat"); s=${s##*) }
  set -- $s; echo $(( ${14} + ${15} ))
}

export OVN_NB_DAEMON
OVN_NB_DAEMON=$(ovn-nbctl --db="$db" --pidfile="$pidfile" --detach --no-chdir \
  --log-file="$dir/nbctl.log" --unixctl="$dir/nbctl.ctl")
daemon=$(cat "$pidfile")
cleanup() { kill "$daemon" 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT

# Make sure the daemon has synced before the clock starts.
ovn-nbctl --wait=none show >/dev/null

d0=$(proc_cpu_ticks "$daemon")
t0=$(date +%s%N)
for ((i = 0; i < n; i++)); do
  a=$((i / 250)); b=$((i % 250))
  name="nbctl-lb-$i"
  ovn-nbctl lb-add "$name" "172.17.$a.$((b + 1)):80" \
      "10.$a.$b.1:8080,10.$a.$b.2:8080,10.$a.$b.3:8080" tcp \
    -- lr-lb-add "$router" "$name" -- ls-lb-add "$switch" "$name"
done
t1=$(date +%s%N)
d1=$(proc_cpu_ticks "$daemon")
c1=$(children_cpu_ticks)

awk -v w=$((t1 - t0)) -v d=$((d1 - d0)) -v c="$c1" -v tick="$tick" -v n="$n" 'BEGIN {
  printf "{\"wall_s\": %.6f, \"cpu_s\": %.4f, \"daemon_cpu_s\": %.4f, \"clients_cpu_s\": %.4f, \"rows\": %d}\n",
    w / 1e9, (d + c) / tick, d / tick, c / tick, n }'
