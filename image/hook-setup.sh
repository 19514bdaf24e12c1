#!/bin/bash
# shellcheck source-path=SCRIPTDIR
# mmdebstrap's setup hook (build.sh): runs on the empty root, before the first package.
# Puts in place what package scripts read while they install, so that each does its work once:
#   - the root partition and consoles raspi-firmware writes into cmdline.txt (the initramfs
#     and its settings come in layer 2 of build.sh, which builds it once);
#   - empty SSH host keys, so openssh-server's postinst does not generate keys under emulation
#     that the build would delete (build.sh removes these; each box makes its own at boot).
set -euo pipefail
R=${1:?usage: setup ROOT}
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=layout.sh
. "$HERE/layout.sh"
install -d "$R/etc/default" "$R/etc/ssh" "$R/boot/firmware"
# No serial console: the header's UART is the PN532's (build.sh writes the final cmdline.txt).
printf 'ROOTPART=PARTUUID=%s-02\nCONSOLES="tty1"\n' "$DISK_ID" \
    > "$R/etc/default/raspi-firmware"
for key in rsa ecdsa ed25519; do : > "$R/etc/ssh/ssh_host_${key}_key"; done
