#!/bin/bash
# shellcheck source-path=SCRIPTDIR
# mmdebstrap's setup hook (build.sh): runs on the empty root, before the first package.
# Puts in place what package scripts read while they install, so that each does its work once:
#   - the initramfs settings (a small initramfs; FSTYPE because the fsck hook cannot resolve
#     LABEL= in a chroot) and the root partition raspi-firmware writes into cmdline.txt;
#   - empty SSH host keys, so openssh-server's postinst does not generate keys under emulation
#     that the build would delete (build.sh removes these; each box makes its own at boot).
set -euo pipefail
R=${1:?usage: setup ROOT}
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=layout.sh
. "$HERE/layout.sh"
install -D -m 0644 "$HERE/initramfs/tabletap.conf" "$R/etc/initramfs-tools/conf.d/tabletap.conf"
install -D -m 0644 "$HERE/initramfs/modules" "$R/etc/initramfs-tools/modules"
install -d "$R/etc/default" "$R/etc/ssh" "$R/boot/firmware"
printf 'ROOTPART=PARTUUID=%s-02\nCONSOLES="serial0,115200 tty1"\n' "$DISK_ID" \
    > "$R/etc/default/raspi-firmware"
for key in rsa ecdsa ed25519; do : > "$R/etc/ssh/ssh_host_${key}_key"; done
