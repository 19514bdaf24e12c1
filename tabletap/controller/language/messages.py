"""The controller's own messages (domain `tabletap`): the table, the set-up, undo, the doctor,
the console and the page. Games build theirs with their own `Domain`, in their own package."""

from __future__ import annotations

from tabletap.controller.language.catalogs import CONTROLLER_DOMAIN
from tabletap.controller.language.said import Domain

msg, msg_n, msg_p, msg_np = Domain(CONTROLLER_DOMAIN).functions()
