#!/bin/bash
# Installs what building and boot-testing the image needs on a Debian build machine (as root):
# mmdebstrap and qemu-user-static (with binfmt) for the arm64 root, python3-venv for the wheelhouse, the file-based assembly
# tools, qemu-system-arm for the boot test, shellcheck for the release checks.
set -euo pipefail
need=()
have() { command -v "$1" >/dev/null 2>&1; }
have mmdebstrap || need+=(mmdebstrap)
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
[ -e /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
have update-binfmts || need+=(binfmt-support)
have qemu-system-aarch64 || need+=(qemu-system-arm)
have mkfs.vfat || need+=(dosfstools)
have mcopy || need+=(mtools)
have sfdisk || need+=(fdisk)
have mkfs.ext4 || need+=(e2fsprogs)
have xz || need+=(xz-utils)
have unzip || need+=(unzip)
# zstd: root_drivers.py reads the initrd; fdtput/fdtget: the boot partition's device trees get
# the header's SPI bus (build.sh) and the tests read them.
have zstd || need+=(zstd)
have fdtput || need+=(device-tree-compiler)
have shellcheck || need+=(shellcheck)
have systemd-analyze || need+=(systemd)
[ -e /usr/share/keyrings/debian-archive-trixie-stable.gpg ] || need+=(debian-archive-keyring)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ] || ! have apt-get; then
        echo "image: missing ${need[*]} (install them with apt-get as root)" >&2; exit 1
    fi
    echo "==> installing ${need[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
fi
# Run arm64 programs in the chroot through qemu-user-static.
if [ "${1:-}" != --no-binfmt ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    update-binfmts --enable qemu-aarch64
fi
