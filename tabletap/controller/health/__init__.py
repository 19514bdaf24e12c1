"""The table's health checks, shared by `tabletap doctor` (commands/doctor.py) and the phone
page's table check (over the control socket)."""
