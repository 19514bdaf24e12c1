#!/bin/bash -e
# pi-gen: install tabletap's wheel, units, users, udev rule and first-boot service.
# ROOTFS_DIR and on_chroot come from pi-gen.
shopt -s nullglob
wheels=(files/tabletap-*.whl)
if [ ${#wheels[@]} -ne 1 ]; then
    echo "stage-tabletap: put exactly one tabletap wheel in 00-tabletap/files (make dist)" >&2
    exit 1
fi
wheel=$(basename "${wheels[0]}")
install -m 0644 "files/${wheel}" "${ROOTFS_DIR}/tmp/${wheel}"
install -m 0755 files/firstboot files/alert -D -t "${ROOTFS_DIR}/usr/lib/tabletap/"
install -m 0644 files/tabletap-firstboot.service files/tabletap-alert.service \
    "${ROOTFS_DIR}/etc/systemd/system/"

on_chroot << CHROOT
python3 -m venv --system-site-packages /opt/tabletap/venv
/opt/tabletap/venv/bin/pip install --no-cache-dir "/tmp/${wheel}[pico]"
rm -f "/tmp/${wheel}"
site=\$(echo /opt/tabletap/venv/lib/python3*/site-packages/tabletap)
install -m 0644 "\$site/hw/systemd/tabletap.service" "\$site/hw/systemd/tabletap-web.service" /etc/systemd/system/
install -m 0644 "\$site/hw/systemd/tabletap.sysusers" /usr/lib/sysusers.d/tabletap.conf
install -m 0644 "\$site/hw/udev/99-tabletap.rules" /etc/udev/rules.d/99-tabletap.rules
ln -sf /opt/tabletap/venv/bin/tabletap /usr/local/bin/tabletap
systemd-sysusers
systemctl enable tabletap.service tabletap-web.service tabletap-firstboot.service avahi-daemon.service
systemctl disable ssh.service || true
CHROOT
