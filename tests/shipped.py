"""The variant files the project ships, in the order of its sources: one list for every test."""

from __future__ import annotations

#: The id of every shipped variant file.
SHIPPED_VARIANTS: tuple[str, ...] = (
    "pagat",
    "wikipedia-brandreth",
    "gamerules-com",
    "britannica-1911",
    "jeux-de-hasard",
    "polish-base",
    "polish",
    "dutch",
    "german",
    "house",
    "dominorules-com",
    "cardsdicedominoes-com",
    "xs4all-matador",
    "matadore-19th-century",
    "bonaludo-com",
)
