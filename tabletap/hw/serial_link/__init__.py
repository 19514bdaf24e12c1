"""The host side of the Pico link (firmware/PROTOCOL.md): port discovery, the link, the backend.

`probe(port)` is the one call `tabletap doctor` needs: it returns the board's Hello (firmware and
protocol versions, capabilities) or raises ProtocolMismatch / BoardNotFound / LinkError.
"""

from tabletap.hw.serial_link.discovery import BoardNotFound, find_port
from tabletap.hw.serial_link.link import (
    BoardLink,
    ConfigRefused,
    Hello,
    LinkCrashed,
    LinkError,
    ProtocolMismatch,
    Ticket,
    probe,
)

__all__ = ["BoardLink", "BoardNotFound", "ConfigRefused", "Hello", "LinkCrashed", "LinkError",
           "ProtocolMismatch", "Ticket", "find_port", "probe"]
