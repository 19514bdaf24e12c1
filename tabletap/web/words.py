"""The page domain's message functions (docs/LANGUAGES.md): what tabletap web says itself, its
refusals and answers, is built with these so Babel finds it for the `page` catalogs."""

from __future__ import annotations

from tabletap.controller.language.catalogs import PAGE_DOMAIN
from tabletap.controller.language.said import Domain

msg, msg_n, msg_p, msg_np = Domain(PAGE_DOMAIN).functions()
