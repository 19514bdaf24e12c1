#!/bin/bash
# shellcheck source-path=SCRIPTDIR
# Builds tabletap-<version>-arm64.img.xz for the Raspberry Pi 3 and 4 from Debian's packages.
#
#   image/build.sh WHEEL OUTDIR        (as root; `make image` calls it)
#
# OUTDIR receives tabletap-<version>-arm64.img.xz; the uncompressed image stays in the cache.
#
# Three layers, each cached under $TABLETAP_IMAGE_CACHE (default build/image) by a hash of its
# inputs, so a rebuild redoes only what changed:
#   1. base:    debootstrap --arch=arm64 under qemu-user-static (minutes)
#   2. system:  the Debian packages of packages.txt, kernel and initramfs (minutes)
#   3. tabletap: the wheel in /opt/tabletap, the files of rootfs/, users, enabled units (about a
#      minute); then the image is assembled from files (sfdisk, mkfs.vfat -C + mcopy,
#      mkfs.ext4 -d, dd), which needs neither loop devices nor a vfat driver on the build host.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
WHEEL=$(realpath "${1:?usage: build.sh WHEEL OUTDIR}")
OUTDIR=$(realpath -m "${2:?usage: build.sh WHEEL OUTDIR}")
SUITE=${TABLETAP_SUITE:-trixie}
MIRROR=${TABLETAP_MIRROR:-http://deb.debian.org/debian}
CACHE=$(realpath -m "${TABLETAP_IMAGE_CACHE:-build/image}")
# shellcheck source=layout.sh
. "$HERE/layout.sh"

START=$SECONDS
step() { printf '\n==> [%3ds] %s\n' "$((SECONDS - START))" "$*"; }
die() { printf 'image: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "building the image needs root (debootstrap, chroot, file ownership)"
"$HERE/host-tools.sh"

VERSION=$(basename "$WHEEL" | cut -d- -f2)
IMAGE="$CACHE/tabletap-$VERSION-arm64.img"
mkdir -p "$CACHE" "$OUTDIR"

# --- chroot helpers --------------------------------------------------------------------------
MOUNTED=()
chroot_mount() {
    local root=$1
    mount -t proc proc "$root/proc"; MOUNTED+=("$root/proc")
    mount -t sysfs sys "$root/sys"; MOUNTED+=("$root/sys")
    mount --bind /dev "$root/dev"; MOUNTED+=("$root/dev")
    mount -t devpts devpts "$root/dev/pts"; MOUNTED+=("$root/dev/pts")
    # raspi-firmware's kernel hook insists that /boot/firmware is a mount point.
    mkdir -p "$root/boot/firmware"
    mount --bind "$root/boot/firmware" "$root/boot/firmware"; MOUNTED+=("$root/boot/firmware")
    cp /etc/resolv.conf "$root/etc/resolv.conf"
}
chroot_umount() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTED[i]}" || true; done
    MOUNTED=()
}
trap chroot_umount EXIT
in_chroot() { chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "${@:2}"; }

key_of() { cat "$@" | sha256sum | cut -c1-16; }

# --- layer 1: base ---------------------------------------------------------------------------
BASE_INCLUDE=ca-certificates,apt-utils
# Bump a layer's number when the commands that build it change; its file inputs are hashed.
BASE_KEY=$(printf 'base-1 %s %s %s' "$SUITE" "$MIRROR" "$BASE_INCLUDE" | sha256sum | cut -c1-16)
BASE="$CACHE/base-$BASE_KEY"
if [ -f "$BASE/.done" ]; then
    step "base: cached ($BASE)"
else
    step "base: debootstrap $SUITE arm64 (about 3 minutes under emulation)"
    rm -rf "$BASE" "$BASE.tmp"
    # shellcheck disable=SC2016 # awk's own variables
    debootstrap --arch=arm64 --variant=minbase --components=main,contrib,non-free-firmware \
        --include="$BASE_INCLUDE" "$SUITE" "$BASE.tmp" "$MIRROR" \
        | stdbuf -oL awk '/^I: (Retrieving|Validating|Extracting|Unpacking|Configuring) [^t]/ {
              n++; if (n % 25 == 0) print "   " n " steps, " $0; next } /^I: / { print "   " $0 }'
    [ -x "$BASE.tmp/usr/bin/apt-get" ] || die "debootstrap failed: see $BASE.tmp/debootstrap/debootstrap.log"
    touch "$BASE.tmp/.done"
    mv "$BASE.tmp" "$BASE"
fi

# --- layer 2: system -------------------------------------------------------------------------
# Of the layout, only the disk identifier (the root's PARTUUID in cmdline.txt) reaches this layer.
SYSTEM_KEY=$(printf 'system-2 %s %s %s' "$BASE_KEY" "$DISK_ID" \
    "$(key_of "$HERE/packages.txt" "$HERE/initramfs/tabletap.conf" "$HERE/initramfs/modules")" \
    | sha256sum | cut -c1-16)
SYSTEM="$CACHE/system-$SYSTEM_KEY"
if [ -f "$SYSTEM/.done" ]; then
    step "system: cached ($SYSTEM)"
else
    step "system: Debian packages, kernel and initramfs (several minutes under emulation)"
    rm -rf "$SYSTEM" "$SYSTEM.tmp"
    cp -a "$BASE" "$SYSTEM.tmp"
    rm -f "$SYSTEM.tmp/.done"
    R="$SYSTEM.tmp"
    cat > "$R/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main contrib non-free-firmware
deb $MIRROR-security $SUITE-security main contrib non-free-firmware
EOF
    # Settings read by package scripts must be in place before the packages install: a small
    # initramfs, and the root partition raspi-firmware writes into cmdline.txt.
    install -D -m 0644 "$HERE/initramfs/tabletap.conf" "$R/etc/initramfs-tools/conf.d/tabletap.conf"
    install -D -m 0644 "$HERE/initramfs/modules" "$R/etc/initramfs-tools/modules"
    install -D -m 0644 /dev/null "$R/etc/default/raspi-firmware"
    printf 'ROOTPART=PARTUUID=%s-02\nCONSOLES="serial0,115200 tty1"\n' "$DISK_ID" \
        > "$R/etc/default/raspi-firmware"
    # No services start inside the chroot.
    printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d"; chmod 0755 "$R/usr/sbin/policy-rc.d"
    chroot_mount "$R"
    mapfile -t PACKAGES < <(sed -e 's/#.*//' -e '/^\s*$/d' "$HERE/packages.txt")
    in_chroot "$R" apt-get update -q -o Acquire::Languages=none
    in_chroot "$R" apt-get install -y -q --no-install-recommends \
        -o Dpkg::Options::=--force-confold -o Dpkg::Use-Pty=0 "${PACKAGES[@]}" \
        | stdbuf -oL grep --line-buffered -E '^(Setting up|update-initramfs|raspi-firmware|E:)' \
        | stdbuf -oL sed 's/^/   /'
    [ "${PIPESTATUS[0]}" = 0 ] || die "apt-get install failed"
    in_chroot "$R" apt-get clean
    chroot_umount
    rm -f "$R/usr/sbin/policy-rc.d" "$R/etc/resolv.conf"
    rm -rf "$R/var/lib/apt/lists/"*
    ls "$R"/boot/initrd.img-* >/dev/null || die "no initramfs was built"
    touch "$R/.done"
    mv "$R" "$SYSTEM"
fi

# --- layer 3: tabletap -----------------------------------------------------------------------
step "tabletap: the wheel in /opt/tabletap/venv, the box's files, users and units"
TREE="$CACHE/tree"
BOOTFS="$CACHE/bootfs"
rm -rf "$TREE" "$BOOTFS"
cp -a "$SYSTEM" "$TREE"
rm -f "$TREE/.done"
# The venv's dependencies are cached by the wheel's requirements and the system they were
# installed on (pip runs under emulation: minutes); tabletap itself goes in on top each time.
REQUIRES=$(unzip -p "$WHEEL" '*.dist-info/METADATA' | grep -E '^(Requires-Dist|Provides-Extra):')
VENV_KEY=$(printf 'venv-2 %s %s' "$SYSTEM_KEY" "$REQUIRES" | sha256sum | cut -c1-16)
VENV_TAR="$CACHE/venv-$VENV_KEY.tar"
cp "$WHEEL" "$TREE/tmp/"
# pip reaches PyPI through the build machine's trust store (which may hold a proxy's CA); the
# copy is removed below and never shipped.
cp "${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" "$TREE/tmp/build-ca.crt"
PIP=(env PIP_CERT=/tmp/build-ca.crt /opt/tabletap/venv/bin/pip install --no-cache-dir
     --progress-bar off --disable-pip-version-check)
chroot_mount "$TREE"
if [ -f "$VENV_TAR" ]; then
    echo "   venv: dependencies cached ($VENV_TAR)"
    tar -C "$TREE" -xf "$VENV_TAR"
    in_chroot "$TREE" "${PIP[@]}" --quiet --no-deps --force-reinstall "/tmp/$(basename "$WHEEL")"
else
    # --system-site-packages: Debian's python3-systemd (JournalHandler) is seen from the venv.
    in_chroot "$TREE" python3 -m venv --system-site-packages /opt/tabletap/venv
    in_chroot "$TREE" "${PIP[@]}" "/tmp/$(basename "$WHEEL")[gpio,pico]" \
        | stdbuf -oL grep --line-buffered -E '^(Collecting|Successfully|ERROR)' | stdbuf -oL sed 's/^/   /'
    [ "${PIPESTATUS[0]}" = 0 ] || die "pip install of the wheel failed"
    tar -C "$TREE" -cf "$VENV_TAR.tmp" opt/tabletap && mv "$VENV_TAR.tmp" "$VENV_TAR"
fi
# (pip compiles what it installs: the root is read-only on the box, Python could not cache them.)
rm -f "$TREE/tmp/$(basename "$WHEEL")" "$TREE/tmp/build-ca.crt"
SITE=$(echo "$TREE"/opt/tabletap/venv/lib/python3*/site-packages/tabletap)
[ -d "$SITE" ] || die "tabletap is not in the venv"

# The box's files, then the units, users and rules shipped in the wheel itself.
cp -a "$HERE/rootfs/." "$TREE/"
chown -R 0:0 "$TREE/etc/tabletap" "$TREE/usr/lib/tabletap" "$TREE/usr/lib/systemd/system" \
    "$TREE/etc/systemd" "$TREE/etc/ssh/sshd_config.d"
install -m 0644 "$SITE/hw/systemd/tabletap.service" "$SITE/hw/systemd/tabletap-web.service" \
    "$TREE/usr/lib/systemd/system/"
install -m 0644 "$SITE/hw/systemd/tabletap.sysusers" "$TREE/usr/lib/sysusers.d/tabletap.conf"
install -m 0644 "$SITE/hw/udev/99-tabletap.rules" "$TREE/usr/lib/udev/rules.d/99-tabletap.rules"
ln -sf /opt/tabletap/venv/bin/tabletap "$TREE/usr/local/bin/tabletap"
in_chroot "$TREE" systemd-sysusers
in_chroot "$TREE" systemctl enable --quiet tabletap.service tabletap-web.service \
    tabletap-firstboot.service systemd-networkd.service avahi-daemon.service
in_chroot "$TREE" systemctl disable --quiet systemd-networkd-wait-online.service ssh.socket \
    2>/dev/null || true
in_chroot "$TREE" systemctl set-default --quiet multi-user.target
# State directories that system services expect under the read-only /var/lib exist already
# (logind's would otherwise fail to start: found by the boot test).
install -d -m 0755 "$TREE/var/lib/systemd/linger"
# networkd keeps nothing across boots on a read-only root: no persistent-storage switch.
in_chroot "$TREE" systemctl mask --quiet systemd-networkd-persistent-storage.service
# No sshd at all without authorized_keys, not even systemd's local AF_UNIX/vsock sockets for it;
# no package timers on a box whose root never changes.
in_chroot "$TREE" systemctl mask --quiet sshd-unix-local.socket sshd-vsock.socket \
    apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer
# avahi answers mDNS on 5353 only: no wide-area (unicast DNS-SD) socket on a random port.
sed -i 's/^#\?enable-wide-area=.*/enable-wide-area=no/' "$TREE/etc/avahi/avahi-daemon.conf"
# No password on any account: root is locked like every system account.
in_chroot "$TREE" usermod -p '*' root
chroot_umount
rm -f "$TREE/etc/resolv.conf"

# Each box makes its own identity at boot: no machine-id, no SSH host keys in the image.
: > "$TREE/etc/machine-id"
rm -f "$TREE"/etc/ssh/ssh_host_*
install -d -m 0700 "$TREE/root/.ssh"
rm -f "$TREE/root/.ssh/authorized_keys"
write_fstab "$TREE/etc/fstab"

# The boot partition: firmware, kernel and initrd (from raspi-firmware), the maker's files.
mv "$TREE/boot/firmware" "$BOOTFS"
install -d "$TREE/boot/firmware" "$TREE/var/lib/tabletap"
printf 'console=serial0,115200 console=tty1 root=PARTUUID=%s-02 ro rootfstype=ext4 rootwait %s\n' \
    "$DISK_ID" "fsck.repair=yes net.ifnames=0" > "$BOOTFS/cmdline.txt"
cp "$HERE/bootfs/README.txt" "$HERE/bootfs/wpa_supplicant.conf.example" "$BOOTFS/"
# The maker's config starts as the annotated example, with the Pi's GPIO library named.
sed 's/^# pin_factory: lgpio /pin_factory: lgpio   /' "$HERE/../examples/table.yaml" \
    > "$BOOTFS/tabletap.yaml"

# --- assemble --------------------------------------------------------------------------------
step "assemble: partitions from files"
"$HERE/assemble.sh" "$TREE" "$BOOTFS" "$IMAGE"

XZ="$OUTDIR/$(basename "$IMAGE").xz"
step "compress: $XZ"
xz -T0 -3 --stdout "$IMAGE" > "$XZ.tmp" && mv "$XZ.tmp" "$XZ"
step "done in $((SECONDS - START)) s: $XZ ($(du -h "$XZ" | cut -f1)); $IMAGE is what make image-test boots"
