"""Sentences for people in the family's language: messages, their catalogs, and rendering.

Engines and the table build `Said` values (a message id in a domain, with named parameters);
nothing is put into words until it reaches someone who hears or reads it, in the language they
chose (docs/LANGUAGES.md). The catalogs are gettext `.po` files, extracted and checked with Babel.
"""

from tabletap.controller.language.said import Domain, ListOf, Named, Said, plain
from tabletap.controller.language.words import Words, words_for

__all__ = ["Domain", "ListOf", "Named", "Said", "Words", "plain", "words_for"]
