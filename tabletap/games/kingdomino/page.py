"""What the phone page needs of a Kingdomino game beyond the engine's public view: kingdoms as
cells, the faces of the dominoes in the lines, the legal moves now, and the final scores' terms,
so the page draws and highlights without knowing any rule."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def extras(engine: Any, state: Any) -> JSON:
    """Kingdoms as cells, the faces of the dominoes in the lines, and the legal moves now, so
    the page can draw the grid and highlight the legal cells without knowing any rule."""
    from tabletap.games.kingdomino.rules.dominoes import dominoes
    from tabletap.games.kingdomino.rules.state import kingdom_to_json
    from tabletap.games.kingdomino.rules.treasures import oriented, token_kinds

    faces = dominoes()
    shown = {s.domino for s in state.line} | {s.domino for s in state.next_line}
    legal = [engine.action_to_json(a) for a in engine.legal_actions(state)]
    return {
        "size": state.size,
        "kingdoms": {p: kingdom_to_json(k)["cells"] for p, k in state.kingdoms.items()},
        "dominoes": {str(n): [[faces[n].left.terrain, faces[n].left.crowns],
                              [faces[n].right.terrain, faces[n].right.crowns]]
                     for n in sorted(shown)},
        "legal": [a for a in legal if a["action"] in ("claim", "place", "discard", "treasure")],
        # Each face-up gem's quarters (nw, ne, se, sw) after 0..3 quarter turns: what the page
        # draws on the corner while a parent turns the gem.
        "gem_faces": {t: [list(oriented(t, k)) for k in range(4)] for t in state.face_up},
        "final": final(engine, state) if engine.is_over(state) else None,
        # each gem's name per language (treasures.yaml), for the view to say in the page's
        "gem_names": {name: dict(kind.named.names) for name, kind in token_kinds().items()},
    }


def final(engine: Any, state: Any) -> JSON:
    """Each kingdom's final score as the engine counts it (territories, variant bonuses, the
    tie-breaks), so the page's final-scores view says why, not only how much."""
    out: JSON = {}
    scores = engine.scores(state)
    for p in state.players:
        b = engine.breakdown(state, p)
        out[p] = {
            "score": scores[p],
            "earlier": scores[p] - b.score,  # a Dynasty's earlier games
            "territories": [
                {"terrain": t.terrain, "squares": t.squares, "crowns": t.crowns + t.gem_crowns,
                 "skulls": t.skulls, "points": t.points}  # a skull makes a territory score 0
                for t in sorted(b.territories, key=lambda t: -t.points)
                if t.crowns + t.gem_crowns],
            "bonuses": dict(b.bonuses),
            "largest_territory": b.largest_territory,
            "crowns": b.crowns,
            "immediate_victory": b.immediate_victory,
        }
    return out
