"""The table's page on a phone: `tabletap web`, a separate process beside the daemon.

It speaks to the daemon only over the control socket (docs/WEB.md): it polls a cheap `snapshot`
with a change counter and pushes changes to browsers as server-sent events, and it forwards a
paired browser's actions as the same `do:` requests the console sends. A crash here never
touches the table, and the daemon never waits on a browser.
"""
