#!/usr/bin/env bash
# Builds a local Docker image that serves the OVN Northbound database, from Debian packages only
# (no image registry needed): mmdebstrap makes a minimal bookworm root filesystem with ovn-central
# and openvswitch-common, `docker import` turns it into a base image, and the small layer in
# scripts/ovsdb-image/ adds /run/openvswitch and an entrypoint running ovsdb-server.
#
#   scripts/build-ovsdb-image.sh [--rebuild] [IMAGE]     (IMAGE defaults to ovnj/ovsdb-server:bookworm)
#
# The base image is the slow part (a download of ~60 packages); it is kept and reused until
# --rebuild is given. Prints the image name on the last line of standard output.
# Needs a running Docker engine (scripts/docker-up.sh starts one) and root to install mmdebstrap.
set -euo pipefail
cd "$(dirname "$0")"

rebuild=false
if [ "${1:-}" = "--rebuild" ]; then
  rebuild=true
  shift
fi
image=${1:-ovnj/ovsdb-server:bookworm}
suite=bookworm
base="ovnj/ovsdb-base:$suite"

log() { echo "build-ovsdb-image: $*" >&2; }

if ! docker info >/dev/null 2>&1; then
  log "no Docker engine reachable (docker info failed); run scripts/docker-up.sh first"
  exit 1
fi

start=$(date +%s)
if $rebuild || ! docker image inspect "$base" >/dev/null 2>&1; then
  if ! command -v mmdebstrap >/dev/null 2>&1; then
    log "installing mmdebstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null 2>&1 || {
      DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
    }
  fi
  log "making $base from Debian $suite packages (mmdebstrap | docker import)"
  # Documentation and translations are left out: they are most of the size and nothing reads them.
  mmdebstrap --quiet --variant=apt \
    --include=ovn-central,openvswitch-common \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    "$suite" - \
    | docker import --change 'CMD ["/bin/sh"]' - "$base" >/dev/null
  log "base image made in $(( $(date +%s) - start )) s"
else
  log "reusing $base (pass --rebuild to make it again)"
fi

layer_start=$(date +%s)
# The classic builder: the image layer needs no BuildKit features, and BuildKit is not always
# installed beside docker.io.
DOCKER_BUILDKIT=0 docker build --quiet --build-arg "BASE=$base" -t "$image" ovsdb-image >/dev/null
log "image $image ready (layer $(( $(date +%s) - layer_start )) s, total $(( $(date +%s) - start )) s)"
echo "$image"
