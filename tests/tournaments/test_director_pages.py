"""Director forms speak the language of the request, their page titles included."""

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path, titles",
    [
        ("/manage/tournaments/new/", {"de": "Neues Turnier", "en": "New tournament", "sl": "Nov turnir"}),
        ("/manage/players/new/", {"de": "Neue/r Spieler/in", "en": "New player", "sl": "Nov igralec"}),
    ],
)
def test_form_titles_follow_the_requested_language(director_client, path, titles):
    for language, title in titles.items():
        page = director_client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f"<h1>{title}</h1>" in page, (language, title)
