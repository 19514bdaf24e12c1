# The partition layout of the tabletap image, shared by the build, the assembly and the boot test.
# shellcheck shell=bash disable=SC2034
# The MBR disk identifier: partitions are found as PARTUUID=<DISK_ID>-NN on the Pi and under qemu.
DISK_ID=7ab1e7a9
# 1: FAT boot partition (firmware, kernel, and the maker's files), label TABLETAP.
BOOT_MB=256
BOOT_LABEL=TABLETAP
# 2: the root filesystem, mounted read-only: its size is what it holds plus this much room.
ROOT_SPARE_MB=96
ROOT_LABEL=tabletap-root
# 3: the state partition, the only one written during play: /var/lib/tabletap.
STATE_MB=128
STATE_LABEL=tabletap-state

# The tabletap user's UID:GID in the root at $1 (its etc/passwd): the owner of the state
# partition's files.
tabletap_owner() { awk -F: '$1 == "tabletap" {print $3 ":" $4}' "$1/etc/passwd"; }

# The root's fstab: read-only root, the state partition the only one written during play.
write_fstab() {
    cat > "$1" <<FSTAB
# The root filesystem is read-only; only the state partition (the game's journal) is written
# during play. The boot partition holds the maker's files (tabletap.yaml, Wi-Fi, SSH keys).
PARTUUID=$DISK_ID-02  /                  ext4   ro,noatime,errors=remount-ro                  0 1
PARTUUID=$DISK_ID-01  /boot/firmware     vfat   rw,noatime,flush,umask=0077,nofail,x-systemd.device-timeout=5min  0 2
PARTUUID=$DISK_ID-03  /var/lib/tabletap  ext4   rw,noatime,nodev,nosuid,noexec,data=journal   0 2
tmpfs                 /var/log           tmpfs  nodev,nosuid,noexec,size=16m                  0 0
tmpfs                 /var/tmp           tmpfs  nodev,nosuid,size=32m                         0 0
FSTAB
}
