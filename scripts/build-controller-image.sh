#!/usr/bin/env bash
# Builds the image of `ovnj kubernetes` without any image registry: mmdebstrap makes a minimal
# Debian bookworm root filesystem with openjdk-17-jre-headless, `docker import` turns it into the
# base image (kept and reused until --rebuild), and deploy/Dockerfile adds cli/target/ovnj.jar.
#
#   scripts/build-controller-image.sh [--rebuild] [IMAGE]    (IMAGE defaults to ovnj/kubernetes:dev)
#
# Load the result into the cluster's nodes, e.g. `kind load docker-image ovnj/kubernetes:dev` or
# `docker save ovnj/kubernetes:dev | ctr -n k8s.io images import -`.
# Needs a running Docker engine (scripts/docker-up.sh starts one) and root to install mmdebstrap.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

rebuild=false
if [ "${1:-}" = "--rebuild" ]; then
  rebuild=true
  shift
fi
image=${1:-ovnj/kubernetes:dev}
suite=bookworm
base="ovnj/jre-base:$suite"

log() { echo "build-controller-image: $*" >&2; }

if ! docker info >/dev/null 2>&1; then
  log "no Docker engine reachable (docker info failed); run scripts/docker-up.sh first"
  exit 1
fi

if $rebuild || ! docker image inspect "$base" >/dev/null 2>&1; then
  if ! command -v mmdebstrap >/dev/null 2>&1; then
    log "installing mmdebstrap"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
  fi
  log "making $base from Debian $suite packages (mmdebstrap | docker import)"
  mmdebstrap --quiet --variant=apt \
    --include=openjdk-17-jre-headless,ca-certificates \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    "$suite" - \
    | docker import --change 'CMD ["/bin/sh"]' - "$base" >/dev/null
else
  log "reusing $base (pass --rebuild to make it again)"
fi

jar="$root/cli/target/ovnj.jar"
if [ ! -f "$jar" ]; then
  log "building $jar"
  (cd "$root" && mvn -B -q -ntp -DskipTests -pl cli -am package) >&2
fi
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
cp "$root/deploy/Dockerfile" "$jar" "$context/"
DOCKER_BUILDKIT=0 docker build --quiet --build-arg "BASE=$base" -t "$image" "$context" >/dev/null
log "image $image ready"
echo "$image"
