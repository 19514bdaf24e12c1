#!/bin/bash
# shellcheck source-path=SCRIPTDIR
# Builds tabletap-<version>-arm64.img.xz for the Raspberry Pi 3 and 4 from Debian's packages.
#
#   image/build.sh WHEEL OUTDIR        (as root; `make image` calls it)
#
# OUTDIR receives tabletap-<version>-arm64.img.xz; the uncompressed image stays in the cache.
#
# Cached under $TABLETAP_IMAGE_CACHE (default build/image) by a hash of their inputs, so a rebuild
# redoes only what changed:
#   1. system:     mmdebstrap --arch=arm64 under qemu-user-static: the base and packages.txt in
#                  one apt pass, the initramfs built once at the end (minutes);
#   wheelhouse:    tabletap's dependencies as arm64 wheels, resolved and downloaded natively
#                  ($TABLETAP_WHEELHOUSE, default $TABLETAP_IMAGE_CACHE/wheelhouse; seconds);
#   2. tabletap:   the venv in /opt/tabletap (its dependencies cached; only the byte-compilation
#                  runs under emulation), the files of rootfs/, users, enabled units; then the
#                  image is assembled from files (sfdisk, mkfs.vfat -C + mcopy, mkfs.ext4 -d, dd),
#                  which needs neither loop devices nor a vfat driver on the build host.
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

case $CACHE in *[[:space:]]*) die "the cache path must not contain spaces: $CACHE" ;; esac
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
# Everything mounted under the cache, deepest first: ours (chroot_mount) and mmdebstrap's own
# (/proc, /sys, /dev/pts, /dev/shm of the root it builds), which an interrupted mmdebstrap leaves
# behind. Run on every exit, and before any cached folder is removed, so that a build after an
# interrupted one starts clean. (Mount points in mountinfo escape spaces; the cache path has none
# that matter: a path with a space is refused below.)
umount_under() {
    local dir=$1 mnt
    while read -r mnt; do
        umount -l "$mnt" 2>/dev/null || true
    done < <(awk -v d="$dir/" 'index($5, d) == 1 { print length($5), $5 }' /proc/self/mountinfo \
        | sort -rn | cut -d' ' -f2-)
}
# This build's processes, by pid: package scripts running in a root under the cache (their
# root directory is there) and every descendant of this script (mmdebstrap's own forks, which
# hold its mounts while they wait for dpkg). dpkg carries on through a Ctrl-C, and mmdebstrap
# waits for it, so a stopped build stops them rather than leave them writing into a tree whose
# mounts are going.
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        echo "$child"
        descendants "$child"
    done
}
stop_processes() {
    local p root pids=()
    for p in /proc/[0-9]*; do
        root=$(readlink "$p/root" 2>/dev/null) || continue
        [[ $root == "$CACHE"/* ]] && pids+=("${p#/proc/}")
    done
    mapfile -t -O "${#pids[@]}" pids < <(descendants $$)
    [ ${#pids[@]} -eq 0 ] || kill -KILL "${pids[@]}" 2>/dev/null || true
    sleep 0.5
}
STOPPING=0
cleanup() {
    [ "$STOPPING" = 1 ] && stop_processes
    chroot_umount
    umount_under "$CACHE"
}
trap cleanup EXIT
# A signal ends the script through `exit`, so the EXIT trap runs for Ctrl-C and time limits too.
trap 'STOPPING=1; exit 130' INT
trap 'STOPPING=1; exit 143' TERM
trap 'STOPPING=1; exit 129' HUP
# Removes a cached folder: its mounts first, and never across a file system (a /dev or /sys
# still bound inside must stop rm, not be emptied through).
remove_tree() {
    local dir
    for dir in "$@"; do
        [ -e "$dir" ] || continue
        umount_under "$dir"
        rm -rf --one-file-system "$dir"
    done
}
in_chroot() { chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "${@:2}"; }

key_of() { cat "$@" | sha256sum | cut -c1-16; }

# --- layer 1: system ------------------------------------------------------------------------
# mmdebstrap installs the base and every package of packages.txt with apt in one pass, with
# dpkg's --force-unsafe-io and eatmydata (no fsync per file, in dpkg or in the package scripts: a
# failed build is thrown away anyway) and without docs, manual pages and translations. The hooks (hook-setup.sh, hook-essential.sh) set up what
# package scripts read.
# Bump the number when the commands that build the layer change; its file inputs are hashed.
# The initramfs is not part of this layer (it is built in layer 2, from the device trees and the
# kernel's module aliases), so changing what goes into it never redoes mmdebstrap.
SYSTEM_KEY=$(printf 'system-5 %s %s %s %s' "$SUITE" "$MIRROR" "$DISK_ID" \
    "$(key_of "$HERE/packages.txt" "$HERE/dpkg-nodoc.cfg" "$HERE/hook-setup.sh" \
        "$HERE/hook-essential.sh")" \
    | sha256sum | cut -c1-16)
SYSTEM="$CACHE/system-$SYSTEM_KEY"
if [ -f "$SYSTEM/.done" ]; then
    step "system: cached ($SYSTEM)"
else
    step "system: mmdebstrap $SUITE arm64 with packages.txt, kernel and initramfs (minutes)"
    remove_tree "$SYSTEM" "$SYSTEM.tmp"
    mkdir -p "$SYSTEM.tmp"
    R="$SYSTEM.tmp"
    PACKAGES=$(sed -e 's/#.*//' -e '/^\s*$/d' "$HERE/packages.txt" | paste -sd, -)
    # The progress: mmdebstrap's stages, every 25th package set up, errors; its whole output and
    # dpkg's log (with the time of every step) are kept beside the layer.
    # shellcheck disable=SC2016 # awk's own variables
    mmdebstrap --mode=root --arch=arm64 --variant=minbase --verbose \
        --components=main,contrib,non-free-firmware --include="$PACKAGES" \
        --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
        --aptopt='Acquire::Languages "none"' --aptopt='APT::Install-Recommends "false"' \
        --dpkgopt=force-unsafe-io --dpkgopt=force-confold --dpkgopt="$HERE/dpkg-nodoc.cfg" \
        --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
        --setup-hook="$HERE/hook-setup.sh" --essential-hook="$HERE/hook-essential.sh" \
        --customize-hook="download /var/log/dpkg.log $SYSTEM.dpkg.log" \
        "$SUITE" "$R" "deb $MIRROR $SUITE main contrib non-free-firmware" \
        "deb $MIRROR-security $SUITE-security main contrib non-free-firmware" \
        > >(tee "$SYSTEM.log" | stdbuf -oL awk '
            /^Setting up / { n++; if (n % 25 == 0) print "   " n " packages set up, " $0; next }
            /^(I|E|W): / || /^dpkg: error/ || /^Errors were/ { print "   " $0 }') 2>&1 &
    # In the background and waited for, so that a signal reaches the traps at once (bash runs a
    # trap only after the foreground command ends, and mmdebstrap ends only after dpkg).
    wait $! || die "mmdebstrap failed: see $SYSTEM.log"
    # update-initramfs stays diverted to its stub here: layer 2 builds the initramfs once.
    # Build-time settings go; the dpkg excludes stay so that the image keeps its shape.
    rm -f "$R/etc/dpkg/dpkg.cfg.d/99mmdebstrap" "$R/etc/apt/apt.conf.d/99mmdebstrap" \
        "$R/etc/resolv.conf"
    install -m 0644 "$HERE/dpkg-nodoc.cfg" "$R/etc/dpkg/dpkg.cfg.d/tabletap-nodoc"
    # The essential packages were unpacked before the excludes applied: the same cut for them.
    find "$R/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
    rm -rf "$R/usr/share/man" "$R/usr/share/info" "$R/usr/share/lintian"
    find "$R/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
    rm -rf "$R/var/lib/apt/lists/"* "$R/var/cache/apt/"*.bin
    touch "$R/.done"
    mv "$R" "$SYSTEM"
fi

# --- the wheelhouse: tabletap's dependencies as arm64 wheels ---------------------------------
# pip never runs under emulation. The dependencies are resolved for the image's Python and
# architecture on this machine (uv pip compile: pip itself would judge markers such as
# python_version by the build machine's Python), downloaded as arm64 wheels (pip download), and
# kept in a wheelhouse with the resolved list, keyed by the wheel's requirements. A wheelhouse
# filled once (TABLETAP_WHEELHOUSE=DIR) lets a later build run with no network but the Debian
# archive; mmdebstrap's own packages are the only downloads then.
PYVER=$(readlink "$SYSTEM/usr/bin/python3") && PYVER=${PYVER#python}
EXTRAS=gpio,pico
REQUIRES=$(unzip -p "$WHEEL" '*.dist-info/METADATA' | grep -E '^(Requires-Dist|Provides-Extra):')
REQ_KEY=$(printf 'wheels-1 %s %s %s' "$PYVER" "$EXTRAS" "$REQUIRES" | sha256sum | cut -c1-16)
WHEELHOUSE=$(realpath -m "${TABLETAP_WHEELHOUSE:-$CACHE/wheelhouse}")
LOCK="$WHEELHOUSE/requirements-$REQ_KEY.txt"
# The image's interpreter and platform, for pip's download and install (pip does not take a
# newer manylinux level as covering the older ones: each is named).
PIP_TARGET=(--python-version "$PYVER" --implementation cp --abi "cp${PYVER/./}" --abi abi3 --abi none)
for level in $(seq 40 -1 17); do PIP_TARGET+=(--platform "manylinux_2_${level}_aarch64"); done
PIP_TARGET+=(--platform manylinux2014_aarch64 --platform linux_aarch64 --platform any)
TOOLS="$CACHE/tools"
# (Warnings about this machine's own pip settings pointing at folders it lacks are left out.)
host_pip() {
    "$TOOLS/bin/python" -m pip --disable-pip-version-check "$@" \
        2> >(grep -v "^WARNING: Location '.*' is ignored" >&2)
}
[ -x "$TOOLS/bin/python" ] || python3 -m venv "$TOOLS"
if [ -f "$LOCK" ]; then
    step "wheelhouse: ready ($LOCK)"
else
    step "wheelhouse: the dependencies resolved for arm64 Python $PYVER, downloaded to $WHEELHOUSE"
    [ -x "$TOOLS/bin/uv" ] || host_pip install --quiet uv || die "cannot install uv from PyPI"
    DL=$(mktemp -d "$CACHE/download.XXXXXX")
    echo "${WHEEL}[$EXTRAS]" > "$DL/requirements.in"
    "$TOOLS/bin/uv" pip compile --quiet --no-header --no-annotate --no-emit-package tabletap \
        --python-platform aarch64-manylinux_2_40 --python-version "$PYVER" \
        --output-file "$DL/requirements.txt" "$DL/requirements.in" \
        || die "resolving tabletap's dependencies for arm64 failed"
    host_pip download --quiet --no-deps --dest "$DL" "${PIP_TARGET[@]}" -r "$DL/requirements.txt" \
        || die "downloading tabletap's dependencies failed"
    # A dependency published only as source is built here, so it must be pure Python: nothing
    # compiles for arm64 on this machine.
    mkdir -p "$DL/built" "$WHEELHOUSE"
    for sdist in "$DL"/*.tar.gz "$DL"/*.zip; do
        [ -e "$sdist" ] || continue
        host_pip wheel --quiet --no-deps --wheel-dir "$DL/built" "$sdist" \
            || die "building a wheel of $(basename "$sdist") failed"
    done
    for built in "$DL"/built/*.whl; do
        [ -e "$built" ] || continue
        case $built in
            *-none-any.whl) ;;
            *) die "$(basename "$built"): no arm64 wheel for Python $PYVER on PyPI, and not pure Python" ;;
        esac
    done
    find "$DL" -name '*.whl' -exec mv -t "$WHEELHOUSE" {} +
    mv "$DL/requirements.txt" "$LOCK"
    rm -rf "$DL"
    echo "   $(grep -c '==' "$LOCK") wheels, listed in $(basename "$LOCK")"
fi

# --- layer 2: tabletap -----------------------------------------------------------------------
# The maker's config starts as the annotated example, with the Pi's GPIO library named: it goes
# on the boot partition, and the first boot moves it to /etc/tabletap/table.yaml unchanged.
maker_config() { sed 's/^# pin_factory: lgpio /pin_factory: lgpio   /' "$HERE/../examples/table.yaml"; }
# What the daemon keeps between its starts (controller/startcache.py: the parsed config and game
# data, the installed entry points) made here, so that a box's very first start finds it, as
# every later one does: about 460 M instructions to READY instead of 650 M (docs/BENCHMARKS.md,
# "The box's first start"). A start of the box's own daemon makes it: as the tabletap user, on
# the maker's config, simulated (no device is opened) and with its console closed, so it stops
# once READY. Only its cache/ is kept, for the state partition ($STATE_FILES); the game it
# started is thrown away. Each kept file says what it was made from, so a box whose config the
# maker changed parses that config again, and a file that does not match is never used.
keep_first_start() {
    local stage="$CACHE/first-start" owner
    remove_tree "$stage" "$STATE_FILES"
    # mkfs.ext4 -d copies times in whole seconds; the entry points are kept against the
    # sys.path folders' times to the nanosecond, so they are cut to what the box will read.
    python3 - "$TREE" <<'PY'
import os, sys
root = sys.argv[1]
top = os.stat(root).st_dev
for here, folders, _ in os.walk(root):
    folders[:] = [f for f in folders if os.lstat(os.path.join(here, f)).st_dev == top]
    st = os.lstat(here)
    os.utime(here, ns=(st.st_atime_ns, st.st_mtime_ns // 10**9 * 10**9), follow_symlinks=False)
PY
    owner=$(tabletap_owner "$TREE")
    install -d -o "${owner%:*}" -g "${owner#*:}" -m 0710 "$stage"
    install -d "$TREE/var/lib/tabletap"
    mount --bind "$stage" "$TREE/var/lib/tabletap"  # a failure's is undone by cleanup's umount_under
    maker_config > "$TREE/etc/tabletap/table.yaml"
    chmod 0644 "$TREE/etc/tabletap/table.yaml"
    # PYTHONDONTWRITEBYTECODE: nothing may change a sys.path folder after its time was read.
    in_chroot "$TREE" runuser -u tabletap -- /bin/sh -c 'umask 0077; exec env \
        STATE_DIRECTORY=/var/lib/tabletap PYTHONDONTWRITEBYTECODE=1 \
        /opt/tabletap/venv/bin/tabletap run --sim --new --config /etc/tabletap/table.yaml \
        </dev/null >/dev/null' || die "the daemon's first start failed in the image (above)"
    umount "$TREE/var/lib/tabletap"
    rm -f "$TREE/etc/tabletap/table.yaml"
    [ -f "$stage/cache/entrypoints.kept" ] || die "the daemon's first start kept nothing"
    install -d -o "${owner%:*}" -g "${owner#*:}" -m 0755 "$STATE_FILES"
    mv "$stage/cache" "$STATE_FILES/cache"
    rm -rf "$stage"
    echo "   the first start's cache: $(cd "$STATE_FILES/cache" && echo *)"
}
step "tabletap: the venv in /opt/tabletap/venv, the box's files, users and units"
TREE="$CACHE/tree"
BOOTFS="$CACHE/bootfs"
STATE_FILES="$CACHE/statefs"  # the state partition's first files (keep_first_start)
remove_tree "$TREE" "$BOOTFS" "$STATE_FILES"
cp -a "$SYSTEM" "$TREE"
rm -f "$TREE/.done"
SP="opt/tabletap/venv/lib/python$PYVER/site-packages"
HOST_PYTHON=$("$TOOLS/bin/python" -c 'import sys; print(sys.executable)')
# Wheels from the wheelhouse unpacked into the venv by this machine's pip (the list was resolved
# for the image's Python, which pip would not take for its own); the console scripts it writes
# name this machine's Python and are pointed at the venv's.
venv_install() {
    host_pip install --quiet --no-deps --no-index --find-links "$WHEELHOUSE" --only-binary=:all: \
        --ignore-requires-python --no-compile --upgrade --target "$TREE/$SP" "${PIP_TARGET[@]}" "$@" \
        || die "installing into the venv failed"
    [ -d "$TREE/$SP/bin" ] || return 0
    local script
    for script in "$TREE/$SP"/bin/*; do
        sed "1,3s|$HOST_PYTHON|/opt/tabletap/venv/bin/python3|" "$script" \
            > "$TREE/opt/tabletap/venv/bin/$(basename "$script")"
        chmod 0755 "$TREE/opt/tabletap/venv/bin/$(basename "$script")"
    done
    rm -rf "${TREE:?}/$SP/bin"
}
# Python compiles what the venv holds here, with the image's own interpreter: the root is
# read-only on the box, so Python could not cache them there.
venv_compile() { in_chroot "$TREE" python3 -m compileall -q -j0 "$@"; }
# The dependencies' part of the venv is cached by the resolved list and the system under it;
# tabletap itself goes in on top each time.
VENV_KEY=$(printf 'venv-3 %s %s' "$SYSTEM_KEY" "$(key_of "$LOCK")" | sha256sum | cut -c1-16)
VENV_TAR="$CACHE/venv-$VENV_KEY.tar"
chroot_mount "$TREE"
# The initramfs, built once here (update-initramfs is diverted to a stub while packages install):
# the hand list of initramfs/modules plus the modules every claimed board's root path needs,
# derived from its device tree and the kernel's module aliases; then checked in the initrd
# itself. Its post-update hook (raspi-firmware) copies kernel, initrd and device trees to
# /boot/firmware.
KVER=$(basename "$(ls -d "$TREE"/usr/lib/modules/*)")
echo "   initramfs: the root's drivers for every claimed board (image/root_drivers.py)"
install -D -m 0644 "$HERE/initramfs/tabletap.conf" "$TREE/etc/initramfs-tools/conf.d/tabletap.conf"
DERIVED=$(python3 "$HERE/root_drivers.py" derive "$TREE") \
    || die "the root's drivers could not be derived from the device trees (above)"
{ cat "$HERE/initramfs/modules"
  echo "# Derived by image/root_drivers.py from the claimed boards' device trees:"
  echo "$DERIVED"; } > "$TREE/etc/initramfs-tools/modules"
python3 "$HERE/root_drivers.py" report "$TREE" | sed 's/^/     /'
if [ -e "$TREE/usr/sbin/update-initramfs.tabletap" ]; then
    rm -f "$TREE/usr/sbin/update-initramfs"
    chroot "$TREE" dpkg-divert --quiet --local --rename \
        --divert /usr/sbin/update-initramfs.tabletap --remove /usr/sbin/update-initramfs
fi
in_chroot "$TREE" update-initramfs -c -k "$KVER" 2>&1 | sed 's/^/     /'
[ -f "$TREE/boot/firmware/initrd.img-$KVER" ] || die "no initramfs in /boot/firmware"
python3 "$HERE/root_drivers.py" check "$TREE" "$TREE/boot/firmware" \
    || die "a claimed board could not reach its root filesystem (above)"
if [ -f "$VENV_TAR" ]; then
    echo "   venv: dependencies cached ($VENV_TAR)"
    tar -C "$TREE" -xf "$VENV_TAR"
else
    echo "   venv: $(grep -c '==' "$LOCK") wheels installed, then byte-compiled under emulation (minutes)"
    # --system-site-packages: Debian's python3-systemd (JournalHandler) is seen from the venv.
    # No pip in the venv: nothing installs on the box, whose root is read-only.
    in_chroot "$TREE" python3 -m venv --without-pip --system-site-packages /opt/tabletap/venv
    venv_install -r "$LOCK"
    venv_compile "/$SP"
    tar -C "$TREE" -cf "$VENV_TAR.tmp" opt/tabletap && mv "$VENV_TAR.tmp" "$VENV_TAR"
fi
venv_install "$WHEEL"
# pip records where the wheel came from: a path of the build machine, not the box's business.
rm -f "$TREE/$SP"/tabletap-*.dist-info/direct_url.json
venv_compile "/$SP/tabletap"
grep -q '^#!/opt/tabletap/venv/bin/python3' "$TREE/opt/tabletap/venv/bin/tabletap" \
    || die "the tabletap script does not run the venv's Python"
SITE="$TREE/$SP/tabletap"
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
    tabletap-firstboot.service tabletap-grow-state.service systemd-networkd.service \
    avahi-daemon.service systemd-timesyncd.service
# No login prompt anywhere: every account is locked, so a getty on the screen or a serial line
# (the generator would start one on any serial console) only prints a prompt nobody can use;
# the header's UART is the PN532's.
in_chroot "$TREE" systemctl mask --quiet getty.target getty@.service serial-getty@.service \
    autovt@.service console-getty.service
# timesyncd's state directory is a bind mount of the state partition's (its drop-in): the mount
# point exists, owned as systemd expects, on the read-only root.
install -d "$TREE/var/lib/systemd/timesync"
in_chroot "$TREE" chown systemd-timesync:systemd-timesync /var/lib/systemd/timesync
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
# systemd's ssh generator asks for a vsock address a Pi has not (an error at every boot); the
# sockets it would make are masked above anyway.
install -d "$TREE/etc/systemd/system-generators"
ln -sf /dev/null "$TREE/etc/systemd/system-generators/systemd-ssh-generator"
# After the last step that changes a folder on the daemon's sys.path (/opt/tabletap, the Python
# folders under /usr): their times are kept with the entry points (tests/image checks them).
keep_first_start
chroot_umount
# No DNS server is configured (the table needs none; mDNS answers tabletap.local), but the file
# exists: avahi's chroot helper logs an error at every boot when it is missing.
printf '# tabletap: no DNS server; tabletap.local is answered by mDNS (avahi).\n' \
    > "$TREE/etc/resolv.conf"

# The image is up to date: without these stamps, units with ConditionNeedsUpdate= (ldconfig,
# the journal catalog) run whenever the root happens to be writable, as during the first boot.
touch "$TREE/etc/.updated" "$TREE/var/.updated"
# Each box makes its own identity at boot: no machine-id, no SSH host keys in the image.
: > "$TREE/etc/machine-id"
# dbus reads the same identity; tmpfiles would link it at boot and fail on the read-only root.
install -d "$TREE/var/lib/dbus"
ln -sf /etc/machine-id "$TREE/var/lib/dbus/machine-id"
rm -f "$TREE"/etc/ssh/ssh_host_*
install -d -m 0700 "$TREE/root/.ssh"
rm -f "$TREE/root/.ssh/authorized_keys"
write_fstab "$TREE/etc/fstab"

# The boot partition: firmware, kernel and initrd (from raspi-firmware), the maker's files.
mv "$TREE/boot/firmware" "$BOOTFS"
# The header's SPI bus (disabled in every mainline tree; config.txt's dtparam cannot reach it) is
# enabled in the claimed boards' trees, and all three header buses are checked (header_dt.py).
# raspi-firmware's kernel hook would copy fresh trees on a kernel upgrade; the image's root is
# read-only and never upgrades in place.
python3 "$HERE/header_dt.py" enable "$BOOTFS" || die "the device trees lack a header bus (above)"
install -d "$TREE/boot/firmware" "$TREE/var/lib/tabletap"
# The kernel's console is the screen only: the header's UART (the mini-UART, the tree's
# stdout-path) is the PN532's, so no kernel message or login prompt may be written there.
printf 'console=tty1 root=PARTUUID=%s-02 ro rootfstype=ext4 rootwait %s\n' \
    "$DISK_ID" "fsck.repair=yes net.ifnames=0" > "$BOOTFS/cmdline.txt"
cp "$HERE/bootfs/README.txt" "$HERE/bootfs/wpa_supplicant.conf.example" "$BOOTFS/"
maker_config > "$BOOTFS/tabletap.yaml"

# --- assemble --------------------------------------------------------------------------------
step "assemble: partitions from files"
"$HERE/assemble.sh" "$TREE" "$BOOTFS" "$IMAGE" "$STATE_FILES"

XZ="$OUTDIR/$(basename "$IMAGE").xz"
# xz -0: seven times faster than -3 here for a file 15 % larger; the empty space is zeros.
step "compress: $XZ"
xz -T0 -0 --stdout "$IMAGE" > "$XZ.tmp" && mv "$XZ.tmp" "$XZ"
step "done in $((SECONDS - START)) s: $XZ ($(du -h "$XZ" | cut -f1)); $IMAGE is what make image-test boots"
