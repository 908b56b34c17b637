"""Prizes: the money and the categories a director sets (:mod:`.models`), who wins what
(:mod:`.award`) and the prize list and its settings page (:mod:`.views`)."""
