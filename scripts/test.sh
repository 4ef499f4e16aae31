#!/usr/bin/env bash
# The README's test command: installs what is missing, then every unit test (Surefire) and every
# test against real ovsdb-server processes (Failsafe).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-ovs.sh
exec mvn -B -ntp verify "$@"
