#!/bin/bash
# Installs the package into a fresh Debian arm64 root (the programs run under qemu-user-static)
# the way a maker installs it on Raspberry Pi OS Lite, `apt install ./tabletap_..._arm64.deb`,
# then runs `tabletap doctor --sim` with the installed config (its voice off: a build root has no
# sound card, which the speaker check rightly reports) and a whole scenario inside, and
# checks what the package put in place (users, enabled units, the venv's Python). The root
# looks booted with systemd to the maintainer scripts (/run/systemd/system) and its systemctl
# is a recorder (`systemd-stub`): the first install must start nothing (a start would begin the
# example config's game, which outlives the maker's edit of table.yaml), and an upgrade, here
# a reinstall, must restart the daemon so the game goes on with the new code. Raspberry Pi
# OS is Debian with Raspberry Pi's kernel and firmware; none of what the package needs from the
# system differs.
#
#   image/deb/test.sh DEB [SUITE...]        (root; default suites: trixie bookworm)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEB=$(realpath "${1:?usage: test.sh DEB [SUITE...]}")
shift
SUITES=("${@:-trixie}")
[ $# -gt 0 ] || SUITES=(trixie bookworm)
MIRROR=${TABLETAP_MIRROR:-http://deb.debian.org/debian}
# apt runs dpkg, and so the maintainer scripts, with a PATH of its own (DPkg::Path; by default
# /usr/sbin:/usr/bin:/sbin:/bin): the recorder's folder goes first
export DPKG_PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
SCENARIO="$HERE/../../scenarios/magic-keys/two-players-to-fifteen.yaml"
[ "$(id -u)" = 0 ] || { echo "deb test: needs root (mmdebstrap, chroot)" >&2; exit 1; }
"$HERE/../host-tools.sh"
for suite in "${SUITES[@]}"; do
    echo "==> $suite arm64: apt install ./$(basename "$DEB"), doctor --sim, a scenario"
    start=$SECONDS
    # Each hook runs in the new root with /proc, /sys and /dev mounted by mmdebstrap, which
    # unmounts them and throws the root away at the end (TARGET /dev/null).
    # shellcheck disable=SC2016 # "$1" is the root, expanded by mmdebstrap's hook shell
    mmdebstrap --mode=root --arch=arm64 --variant=apt --quiet \
        --aptopt='APT::Install-Recommends "false"' --dpkgopt=force-unsafe-io \
        --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
        --customize-hook="copy-in $DEB $SCENARIO /tmp" \
        --customize-hook="copy-in $HERE/systemd-stub /usr/local/sbin" \
        --customize-hook='mv "$1/usr/local/sbin/systemd-stub" "$1/usr/local/sbin/systemctl"
            mkdir -p "$1/run/systemd/system"' \
        --customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Path="$DPKG_PATH" install -y -q /tmp/'"$(basename "$DEB")"' 2>&1 | tail -n 3' \
        --customize-hook='chroot "$1" sh -exc "
            cat /tmp/systemctl.calls
            grep -qx \"enable tabletap.service tabletap-firstboot.service\" /tmp/systemctl.calls
            if grep \"^restart\" /tmp/systemctl.calls; then
                echo \"the first install started the daemon\" >&2; exit 1
            fi
            rm /tmp/systemctl.calls
        "' \
        --customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Path="$DPKG_PATH" install -y -q --reinstall /tmp/'"$(basename "$DEB")"' 2>&1 | tail -n 3' \
        --customize-hook='chroot "$1" sh -exc "
            cat /tmp/systemctl.calls
            grep -qx \"restart tabletap.service\" /tmp/systemctl.calls
            rm -r /tmp/systemctl.calls /run/systemd/system /usr/local/sbin/systemctl
        "' \
        --customize-hook='chroot "$1" sh -exc "
            tabletap --version
            getent passwd tabletap tabletap-web
            test -L /etc/systemd/system/multi-user.target.wants/tabletap.service
            test -L /etc/systemd/system/sysinit.target.wants/tabletap-firstboot.service
            stat -c \"%U:%G %a %n\" /etc/tabletap/table.yaml
            /opt/tabletap/venv/bin/python -c \"import sys, gpiod, lgpio, systemd.journal; print(sys.version)\"
            sed \"s/^voice: {enabled: true/voice: {enabled: false/\" /etc/tabletap/table.yaml > /tmp/quiet.yaml
            cd / && tabletap doctor --sim --config /tmp/quiet.yaml
            tabletap sim run /tmp/two-players-to-fifteen.yaml
            apt-get remove -y -q tabletap >/dev/null
            test ! -e /opt/tabletap/venv
        "' \
        "$suite" /dev/null "deb $MIRROR $suite main"
    echo "==> $suite: passed in $((SECONDS - start)) s"
done
