#!/usr/bin/env bash
# Builds the image of the Dockerfile without a Docker engine, from package registries only, and
# runs the committed sample in it: the check that the Dockerfile builds and its default command
# works. Needs root, debootstrap and buildah (Debian packages); the base is Debian trixie (Node 20
# from Debian's packages) made by debootstrap, since no container registry is reachable here.
#
#   sudo bash scripts/build-image.sh [work folder]    # default /tmp/lme-image
#
# Prints the time of each step and the run's summary line; exits non-zero when a step fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/lme-image}
export STORAGE_DRIVER=vfs BUILDAH_ISOLATION=chroot
step() { printf '%s %s\n' "$(date +%T)" "$*"; }

for tool in debootstrap buildah; do
  command -v "$tool" >/dev/null || { echo "build-image: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
mkdir -p "$work"
rootfs="$work/rootfs"
if [ ! -x "$rootfs/usr/bin/node" ]; then
  step "debootstrap trixie into $rootfs"
  rm -rf "$rootfs"
  debootstrap --variant=minbase --include=ca-certificates trixie "$rootfs" >"$work/debootstrap.log"
  step "nodejs and npm from Debian's packages"
  mount -t proc proc "$rootfs/proc"
  mount --bind /dev/pts "$rootfs/dev/pts"
  trap 'umount "$rootfs/proc" "$rootfs/dev/pts" 2>/dev/null || true' EXIT
  chroot "$rootfs" apt-get install -y -q --no-install-recommends nodejs npm >"$work/apt.log"
  chroot "$rootfs" apt-get clean
  umount "$rootfs/proc" "$rootfs/dev/pts"
  trap - EXIT
fi
# The base trusts what this machine trusts (a proxy's CA, where the registries are reached through one).
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
step "base image lme-base ($(chroot "$rootfs" node --version))"
base=$(buildah from scratch)
mnt=$(buildah mount "$base")
cp -a "$rootfs/." "$mnt/"
buildah umount "$base" >/dev/null
buildah commit -q "$base" lme-base >/dev/null
buildah rm "$base" >/dev/null

step "build the Dockerfile on it"
buildah bud -q --layers=false --build-arg BASE=localhost/lme-base -t lme -f "$root/Dockerfile" "$root" >"$work/build.log"

step "run the image's default command (the sample, bm25)"
ctr=$(buildah from lme)
buildah run "$ctr" -- sh -c 'cd /lme && pnpm -s lme run --dataset sample --preset bm25 --out /tmp/lme-results -q && cat /tmp/lme-results/*/summary.json' | tee "$work/run.log" | tail -n 5
buildah rm "$ctr" >/dev/null
step "done: image lme ($(buildah images --format '{{.Size}}' lme | head -n 1))"
