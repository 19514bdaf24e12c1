"""What the family puts back after a Key to the Kingdom action is undone (the action's journal
JSON). Space ids ("v11") are left as ids: the table layer's `said` puts them into words."""

from __future__ import annotations

from typing import Any

from tabletap.controller.spoken.words import piece_words


def _item(item: Any) -> str:
    """An item or companion id as the family knows it: "the knight's sword"."""
    text = str(item)
    if text.startswith("event/"):
        return f"companion card {text.split('/', 1)[1]}"
    parts = text.split("/")
    if len(parts) == 2 and parts[0] != "magic":  # <hero>/<item>
        return f"the {parts[0].replace('-', ' ')}'s {parts[1].replace('-', ' ')}"
    return f"the {piece_words(text).replace('magic ', '')}"


def _items(items: Any) -> str:
    return " and ".join(_item(i) for i in items) if items else "nothing"


def put_back(action: dict[str, Any], before: Any = None) -> str:
    k = str(action.get("action") or "")
    if k == "use":
        said = f"Turn {_item(action['item'])} back up: it is not used on this roll"
        if action.get("target"):
            said += f", and turn {_item(action['target'])} back up too"
        if action.get("refresh"):
            said += f", and turn {_item(action['refresh'])} back over as exhausted"
        return said + "."
    if k == "move":
        return f"Move the hero back off space {action['to']}, to where the move began."
    if k == "resolve":
        return "The roll is open again: use items on it, or take it again."
    if k == "shortcut":
        return "Move the hero back out of the space the shortcut entered."
    if k == "nap":
        return f"Turn {_items(action.get('items'))} back over as exhausted; the nap is undone."
    if k == "refresh":
        return f"Turn {_items(action.get('items'))} back over as exhausted."
    if k == "exhaust":
        return f"Turn {_items(action.get('items'))} back up."
    if k == "assign":
        return f"Take the Demon die back from the {action['hero']}."
    if k == "take-magic":
        return f"Put {_item('magic/' + str(action['item']).split('/')[-1])} back in the supply."
    if k == "steal":
        return f"Give {_item(action['item'])} back to its hero."
    if k == "sweep":
        return f"Bring the {action['hero']} back out of the whirlpool."
    if k == "take-key":
        return f"Put the {piece_words('kttk/key/' + str(action['piece']))} back on the pile."
    if k == "courtyard":
        return f"Move the hero back off courtyard space {action['space']}."
    if k == "castle":
        return "Move the hero back into the courtyard: the castle is not entered yet."
    if k == "draw":
        return "Put the event card back on top of the deck."
    return ""  # a roll is chance: it is never taken back
