"""Steps the browser tests share."""


def log_in(page, live_server, next_path: str) -> None:
    """Log in as the ``director`` fixture's user (tests/conftest.py) through the login form and
    go on to ``next_path``; returns once the browser asked for it (the caller waits for what it
    needs there)."""
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", "leiter")
    page.fill("input[name=password]", "geheim-123")
    page.keyboard.press("Enter")
