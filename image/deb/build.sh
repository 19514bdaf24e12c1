#!/bin/bash
# shellcheck source-path=SCRIPTDIR
# Builds tabletap_<version>_arm64.deb for Raspberry Pi OS Lite (bookworm and trixie), any Pi
# that runs it (a Pi 5 too, whose kernel only Raspberry Pi OS has):
#
#   image/deb/build.sh WHEEL OUTDIR           (`make deb`; no root needed)
#
# The package carries tabletap's wheel and its dependencies as arm64 wheels for both systems'
# Pythons (3.11 on bookworm, 3.13 on trixie), resolved and downloaded here; its postinst makes
# /opt/tabletap/venv from them with the Pi's own Python and pip, offline. It also installs the
# units (the daemon, the page, the boot-partition import and the green-light alert), the udev
# rules, the `tabletap` users, and /etc/tabletap/table.yaml (a conffile). Raspberry Pi OS makes
# /dev/serial0 and enables I2C and SPI itself (raspi-config), so the image's rules for those
# are not in it.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
IMAGE=$(dirname "$HERE")
WHEEL=$(realpath "${1:?usage: build.sh WHEEL OUTDIR}")
OUTDIR=$(realpath -m "${2:?usage: build.sh WHEEL OUTDIR}")
CACHE=$(realpath -m "${TABLETAP_IMAGE_CACHE:-build/image}")
PYVERS=(3.11 3.13)           # bookworm, trixie
GLIBC=2_36                   # bookworm's; trixie's is newer and runs these too
EXTRAS=gpio,pico
VERSION=$(basename "$WHEEL" | cut -d- -f2)
die() { printf 'deb: %s\n' "$*" >&2; exit 1; }
for tool in dpkg-deb unzip python3; do
    command -v "$tool" >/dev/null || die "$tool is missing (apt-get install dpkg unzip python3-venv)"
done

TOOLS="$CACHE/tools"
mkdir -p "$CACHE" "$OUTDIR"
[ -x "$TOOLS/bin/python" ] || python3 -m venv "$TOOLS"
host_pip() {
    "$TOOLS/bin/python" -m pip --disable-pip-version-check "$@" \
        2> >(grep -v "^WARNING: Location '.*' is ignored" >&2)
}
[ -x "$TOOLS/bin/uv" ] || host_pip install --quiet uv || die "cannot install uv from PyPI"

STAGE=$(mktemp -d "$CACHE/deb.XXXXXX")
trap 'rm -rf --one-file-system "$STAGE"' EXIT
PKG="$STAGE/pkg"
WHEELS="$PKG/opt/tabletap/wheels"
mkdir -p "$WHEELS"
echo "${WHEEL}[$EXTRAS]" > "$STAGE/requirements.in"
for pyver in "${PYVERS[@]}"; do
    echo "==> the dependencies for arm64 Python $pyver"
    "$TOOLS/bin/uv" pip compile --quiet --no-header --no-annotate --no-emit-package tabletap \
        --python-platform "aarch64-manylinux_$GLIBC" --python-version "$pyver" \
        --output-file "$STAGE/requirements-$pyver.txt" "$STAGE/requirements.in" \
        || die "resolving tabletap's dependencies for Python $pyver failed"
    target=(--python-version "$pyver" --implementation cp --abi "cp${pyver/./}" --abi abi3
            --abi none)
    for level in $(seq "${GLIBC#2_}" -1 17); do target+=(--platform "manylinux_2_${level}_aarch64"); done
    target+=(--platform manylinux2014_aarch64 --platform linux_aarch64 --platform any)
    host_pip download --quiet --no-deps --dest "$STAGE/dl" "${target[@]}" \
        -r "$STAGE/requirements-$pyver.txt" \
        || die "downloading tabletap's dependencies for Python $pyver failed"
done
# A dependency published only as source is built here, and must be pure Python (as in the
# image's build): nothing compiles for arm64 on this machine or on the Pi.
for sdist in "$STAGE"/dl/*.tar.gz "$STAGE"/dl/*.zip; do
    [ -e "$sdist" ] || continue
    host_pip wheel --quiet --no-deps --wheel-dir "$STAGE/built" "$sdist" \
        || die "building a wheel of $(basename "$sdist") failed"
    rm -f "$sdist"
done
for built in "$STAGE"/built/*.whl; do
    [ -e "$built" ] || continue
    case $built in
        *-none-any.whl) mv "$built" "$WHEELS/" ;;
        *) die "$(basename "$built"): no arm64 wheel on PyPI, and not pure Python" ;;
    esac
done
mv "$STAGE"/dl/*.whl "$WHEELS/"
cp "$WHEEL" "$WHEELS/"
cp "$STAGE"/requirements-*.txt "$WHEELS/"

# The files: units, rules and users from the wheel itself; the boot-partition import and the
# alert from the image's rootfs (the same scripts).
site="$STAGE/site"
unzip -q "$WHEEL" 'tabletap/hw/*' -d "$site"
hw="$site/tabletap/hw"
rootfs="$IMAGE/rootfs"
install -D -m 0644 -t "$PKG/usr/lib/systemd/system" "$hw/systemd/tabletap.service" \
    "$hw/systemd/tabletap-web.service" "$rootfs/usr/lib/systemd/system/tabletap-firstboot.service" \
    "$rootfs/usr/lib/systemd/system/tabletap-alert.service"
install -D -m 0644 "$HERE/firstboot-files.conf" \
    "$PKG/usr/lib/systemd/system/tabletap-firstboot.service.d/tabletap-deb.conf"
install -D -m 0644 "$hw/systemd/tabletap.sysusers" "$PKG/usr/lib/sysusers.d/tabletap.conf"
install -D -m 0644 "$hw/udev/99-tabletap.rules" "$PKG/usr/lib/udev/rules.d/99-tabletap.rules"
install -D -m 0644 "$rootfs/usr/lib/modules-load.d/tabletap.conf" \
    "$PKG/usr/lib/modules-load.d/tabletap.conf"
install -D -m 0755 -t "$PKG/usr/lib/tabletap" "$rootfs/usr/lib/tabletap/firstboot" \
    "$rootfs/usr/lib/tabletap/alert"
install -d "$PKG/etc/tabletap" "$PKG/usr/bin"
sed 's/^# pin_factory: lgpio /pin_factory: lgpio   /' "$IMAGE/../examples/table.yaml" \
    > "$PKG/etc/tabletap/table.yaml"
ln -s /opt/tabletap/venv/bin/tabletap "$PKG/usr/bin/tabletap"

install -d "$PKG/DEBIAN"
sed "s/@VERSION@/$VERSION/" "$HERE/control" > "$PKG/DEBIAN/control"
echo /etc/tabletap/table.yaml > "$PKG/DEBIAN/conffiles"
install -m 0755 "$HERE/postinst" "$HERE/prerm" "$HERE/postrm" "$PKG/DEBIAN/"
DEB="$OUTDIR/tabletap_${VERSION}_arm64.deb"
dpkg-deb --root-owner-group -Zxz --build "$PKG" "$DEB" >/dev/null
echo "==> $DEB ($(du -h "$DEB" | cut -f1), $(find "$WHEELS" -name '*.whl' | wc -l) wheels)"
