"""Steps the browser tests share."""


def log_in(page, live_server, next_path: str) -> None:
    """Log in as the ``director`` fixture's user (tests/conftest.py) through the login form and
    go on to ``next_path``; returns once the browser asked for it (the caller waits for what it
    needs there)."""
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", "leiter")
    page.fill("input[name=password]", "geheim-123")
    page.keyboard.press("Enter")


def log_in_to_sheet(page, live_server, table) -> None:
    """Log in as the ``director`` fixture's user and land on ``table``'s score sheet with its form."""
    log_in(page, live_server, f"/table/{table.pk}/")
    page.wait_for_selector("#hand-form")


def type_line(page, text: str) -> None:
    """Type ``text`` into the empty quick line with the keyboard and wait until the preview shows
    the server's reading of exactly that line."""
    page.fill("#quick", "")
    page.focus("#quick")
    page.keyboard.type(text)
    page.wait_for_function(
        "t => { const s = document.querySelector('#preview-state');"
        " return s && JSON.parse(s.textContent).typed === t; }",
        arg=text,
    )


LONG_NAMES = [
    "Maximiliane Hofer-Mair-Unterberger",
    "Bartholomäus Schwaighofer-Pfurtscheller",
    "Šimon Novak-Kovačič",
    "Walburga Haslwanter-Lechleitner",
    "Christophorus Kirchmair-Holzknecht",
    "Kunigunde Oberhollenzer-Rietzler",
    "Florian Kaltenbrunner-Vögele",
    "Notburga Schwarzenberger-Aufschnaiter",
    "Hieronymus Unterrainer-Zangerl",
]
"""Long double names (a layout must fit them), given to a tournament's players by :func:`give_long_names`."""


def give_long_names(tournament, club: str | None = None) -> None:
    """Rename ``tournament``'s registered players, in registration order, to :data:`LONG_NAMES`
    (as many as there are players, up to nine), and give them ``club`` if one is named."""
    for registration, name in zip(tournament.registrations.select_related("player").order_by("pk"), LONG_NAMES):
        registration.player.name = name
        if club is not None:
            registration.player.club = club
        registration.player.save()
