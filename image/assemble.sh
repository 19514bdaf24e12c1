#!/bin/bash
# Assembles the disk image from files, without loop devices, device-mapper or a vfat driver:
#   sfdisk writes the partition table into the image file, `mkfs.vfat -C` makes the boot
#   partition as a file that mcopy fills, `mkfs.ext4 -d` makes the root and state partitions
#   from folders, and dd puts each into place.
#
#   assemble.sh ROOTDIR BOOTDIR IMAGE [STATEDIR]
#
# STATEDIR, if given, holds the state partition's first files (build.sh's keep_first_start: the
# daemon's start cache), owned as they will be on the box.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/layout.sh"

ROOTDIR=$1 BOOTDIR=$2 IMAGE=$3 STATEDIR=${4:-}
WORK="$IMAGE.parts"
rm -rf "$WORK" && mkdir -p "$WORK"

# Sizes in MiB; partitions are 1 MiB aligned, the first at 4 MiB as the Pi's tools leave it.
ROOT_MB=$(( $(du -sm --apparent-size "$ROOTDIR" | cut -f1) * 115 / 100 + ROOT_SPARE_MB ))
BOOT_START=4
ROOT_START=$((BOOT_START + BOOT_MB))
STATE_START=$((ROOT_START + ROOT_MB))
TOTAL_MB=$((STATE_START + STATE_MB))
echo "   boot ${BOOT_MB} MiB, root ${ROOT_MB} MiB (read-only), state ${STATE_MB} MiB: ${TOTAL_MB} MiB"

# The boot partition: FAT32 (the Pi's firmware reads FAT16 or FAT32), filled with mcopy.
mkfs.vfat -C -F 32 -n "$BOOT_LABEL" -i "$DISK_ID" "$WORK/boot.img" $((BOOT_MB * 1024)) >/dev/null
MTOOLS_SKIP_CHECK=1 mcopy -s -p -m -i "$WORK/boot.img" "$BOOTDIR"/* ::/

# The root filesystem, read-only on the box, and the state partition (empty, or STATEDIR's files).
mkfs.ext4 -q -F -L "$ROOT_LABEL" -d "$ROOTDIR" -E root_owner=0:0 "$WORK/root.img" "${ROOT_MB}M"
# The state partition's top is the daemon's from the start: systemd gives a StateDirectory= whose
# top it does not own to its service by chowning everything inside, and on the first boot that
# took timesyncd's clock file (.timesync/clock, already there) from it, so the box never saved its
# time again (found by image/boot_test.py's clock check).
OWNER=$(tabletap_owner "$ROOTDIR")
[ -n "$OWNER" ] || { echo "assemble.sh: no tabletap user in $ROOTDIR/etc/passwd" >&2; exit 1; }
mkfs.ext4 -q -F -L "$STATE_LABEL" -E root_owner="$OWNER" ${STATEDIR:+-d "$STATEDIR"} \
    "$WORK/state.img" "${STATE_MB}M"

rm -f "$IMAGE"
truncate -s "${TOTAL_MB}M" "$IMAGE"
sfdisk --quiet "$IMAGE" <<EOF
label: dos
label-id: 0x$DISK_ID
unit: sectors

start=$((BOOT_START * 2048)), size=$((BOOT_MB * 2048)), type=c, bootable
start=$((ROOT_START * 2048)), size=$((ROOT_MB * 2048)), type=83
start=$((STATE_START * 2048)), size=$((STATE_MB * 2048)), type=83
EOF
dd if="$WORK/boot.img" of="$IMAGE" bs=1M seek="$BOOT_START" conv=notrunc,sparse status=none
dd if="$WORK/root.img" of="$IMAGE" bs=1M seek="$ROOT_START" conv=notrunc,sparse status=none
dd if="$WORK/state.img" of="$IMAGE" bs=1M seek="$STATE_START" conv=notrunc,sparse status=none
rm -rf "$WORK"
sfdisk --list "$IMAGE" | sed -n '/^Device/,$p' | sed 's/^/   /'
