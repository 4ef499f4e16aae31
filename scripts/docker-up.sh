#!/usr/bin/env bash
# Makes sure a Docker engine answers on /var/run/docker.sock, for the container tests.
# Installs docker.io when dockerd is missing (root, Debian), starts dockerd in the background when
# none answers, and waits up to 60 s for it. Exit 0 when an engine answers. Otherwise exit 1 and
# print, as the one line on standard output, exactly why not (the tests' skip message quotes it).
# When it starts dockerd it writes the pid to /run/ovnj-dockerd.pid, so the caller can stop it.
set -uo pipefail

log=/var/log/ovnj-dockerd.log
unavailable() { echo "$*"; exit 1; }

docker info >/dev/null 2>&1 && exit 0
rm -f /run/ovnj-dockerd.pid  # left by a dockerd that is gone

if ! command -v dockerd >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || unavailable "dockerd is not installed and installing docker.io needs root"
  echo "docker-up: installing docker.io" >&2
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/tmp/ovnj-docker-install.log 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/tmp/ovnj-docker-install.log 2>&1 \
      || unavailable "apt-get install docker.io failed: $(tail -1 /tmp/ovnj-docker-install.log)"
  fi
fi
[ "$(id -u)" -eq 0 ] || unavailable "no Docker engine answers and starting dockerd needs root"

echo "docker-up: starting dockerd (log: $log)" >&2
dockerd >"$log" 2>&1 &
pid=$!
echo "$pid" > /run/ovnj-dockerd.pid
for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    echo "docker-up: dockerd $pid answers" >&2
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f /run/ovnj-dockerd.pid
    unavailable "dockerd exited at start: $(grep -v '^\s*$' "$log" | tail -1)"
  fi
  sleep 1
done
unavailable "dockerd did not answer within 60 s: $(grep -v '^\s*$' "$log" | tail -1)"
