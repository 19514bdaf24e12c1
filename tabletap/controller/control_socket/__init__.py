"""The control socket (server.py) and its request kinds: the console's (requests.py), the phone
page's side (page.py) and the pairings it keeps (pairing.py)."""
