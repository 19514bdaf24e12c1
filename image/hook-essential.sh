#!/bin/bash
# mmdebstrap's essential hook (build.sh): runs once dpkg works in the root, before the
# packages of packages.txt. update-initramfs is diverted to a stub while they install: the
# kernel's hook and initramfs-tools' trigger would each build the initramfs under emulation;
# build.sh removes the diversion and builds it once, at the end.
set -euo pipefail
R=${1:?usage: essential ROOT}
chroot "$R" dpkg-divert --quiet --local --rename --divert /usr/sbin/update-initramfs.tabletap \
    --add /usr/sbin/update-initramfs
printf '#!/bin/sh\necho "update-initramfs: deferred to the end of the image build"\n' \
    > "$R/usr/sbin/update-initramfs"
chmod 0755 "$R/usr/sbin/update-initramfs"
