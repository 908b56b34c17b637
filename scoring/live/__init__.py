"""The day as it happens: the director's board (:mod:`.board`), the big screen (:mod:`.screen`),
the round clock's commands (:mod:`.views_clock`), each player's page (:mod:`.player_page`), the
day's statistics (:mod:`.statistics`) and their charts (:mod:`.charts`)."""
