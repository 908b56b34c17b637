"""The register searched as the director types: a name typed in full, hyphen and all, finds the
player; every typed word is the start of a word of the name or club (hyphens, apostrophes and
dots separate words, case and accents are folded); the database narrows the register, which is
never read whole into Python."""

import unicodedata
from unittest import mock

import pytest
from django.urls import reverse

from tournaments.models import Player
from tournaments.registration import register as registration

NAMES = [
    ("Andreas Hofer-Mair", "Imst"),
    ("Hofer Martin", "Vomp"),
    ("Maria Kaltenbrunner-Vogl", "St. Johann"),
    ("Seán O'Brien", ""),
    ("Jürgen Straßer", "Schwaz"),
    ("Šimon Žagar", "Bled"),
    ("Zoltán Kovács-Nagy", "Eger"),
    ("Anna-Lena d'Arco", "Lienz"),
    ("Hans Falk", "St.Johann/Tirol"),
    (unicodedata.normalize("NFD", "Jože Šuštar"), "Kranj"),  # stored decomposed, as a Mac file writes it
    ("ŁUKASZ ŻÓŁW", "Kraków"),
    ("Ἀλέξανδρος Πάππας", "Αθήνα"),
    ("Ĳsbrand de Vries", "Ĳmuiden"),
    # Letters of their own, no accent to fold: written plain by whoever types without them.
    ("Đorđe Đukić", "Split"),
    ("Søren Ærø", "Ærøskøbing"),
    ("Þór Guðmundsson", "Reykjavík"),
    ("Jean Œuvray", "Besançon"),
]


@pytest.fixture
def players(db):
    return {name: Player.objects.create(name=name, club=club) for name, club in NAMES}


def names(found):
    return [unicodedata.normalize("NFC", p.name) for p in found]


@pytest.mark.django_db
def test_a_hyphenated_name_typed_in_full_finds_him(players, make_tournament):
    t = make_tournament(players=0)
    assert names(registration.search_players("Andreas Hofer-Mair", t)) == ["Andreas Hofer-Mair"]
    assert names(registration.search_players("Hofer-M", t)) == ["Andreas Hofer-Mair", "Hofer Martin"]
    assert names(registration.search_players("hofer-mai", t)) == ["Andreas Hofer-Mair"]
    assert names(registration.search_players("Kaltenbrunner-V", t)) == ["Maria Kaltenbrunner-Vogl"]
    assert names(registration.search_players("Kaltenbrunner–Vogl", t)) == ["Maria Kaltenbrunner-Vogl"]  # an en dash
    assert names(registration.search_players("kovacs-n", t)) == ["Zoltán Kovács-Nagy"]
    assert names(registration.search_players("Anna-Lena d'Arco", t)) == ["Anna-Lena d'Arco"]
    assert names(registration.search_players("d’arco", t)) == ["Anna-Lena d'Arco"]  # a typographic apostrophe
    assert names(registration.search_players("lena arco", t)) == ["Anna-Lena d'Arco"]
    assert names(registration.search_players("Sean O'Brien", t)) == ["Seán O'Brien"]
    assert names(registration.search_players("obrien", t)) == []  # "O" and "Brien" are two words
    # Clubs too, dots and slashes separating their words.
    assert names(registration.search_players("st. johann", t)) == ["Hans Falk", "Maria Kaltenbrunner-Vogl"]
    assert names(registration.search_players("johann/tirol", t)) == ["Hans Falk"]
    # Word starts only, not the middle of a word.
    assert names(registration.search_players("mair", t)) == ["Andreas Hofer-Mair"]
    assert names(registration.search_players("air", t)) == []


@pytest.mark.django_db
def test_accents_case_and_spelt_out_letters_are_folded(players, make_tournament):
    t = make_tournament(players=0)
    assert names(registration.search_players("zag", t)) == ["Šimon Žagar"]
    assert names(registration.search_players("ŠIMON", t)) == ["Šimon Žagar"]
    assert names(registration.search_players("suštar", t)) == ["Jože Šuštar"]  # stored decomposed
    assert names(registration.search_players("joze sus", t)) == ["Jože Šuštar"]
    assert names(registration.search_players("strasser", t)) == ["Jürgen Straßer"]
    assert names(registration.search_players("stras", t)) == ["Jürgen Straßer"]  # ends inside "ß"
    assert names(registration.search_players("Straßer", t)) == ["Jürgen Straßer"]
    assert names(registration.search_players("juergen", t)) == []  # "ü" folds to "u", not "ue"
    assert names(registration.search_players("łukasz zo", t)) == ["ŁUKASZ ŻÓŁW"]  # "Ł" is a letter of its own (no accent to fold)
    assert names(registration.search_players("zółw", t)) == ["ŁUKASZ ŻÓŁW"]
    assert names(registration.search_players("krakow", t)) == ["ŁUKASZ ŻÓŁW"]
    assert names(registration.search_players("αλεξ παπ", t)) == ["Ἀλέξανδρος Πάππας"]
    assert names(registration.search_players("ijsbrand", t)) == ["Ĳsbrand de Vries"]
    assert names(registration.search_players("ijm", t)) == ["Ĳsbrand de Vries"]
    assert names(registration.search_players("vries i", t)) == ["Ĳsbrand de Vries"]  # ends inside "Ĳ"


@pytest.mark.django_db
def test_letters_of_their_own_are_found_written_plain(players, make_tournament):
    # đ, ł, ø, æ, œ, þ, ð are letters no accent makes: typed plain they are d, l, o, ae, oe, th, d.
    t = make_tournament(players=0)
    assert names(registration.search_players("dukic", t)) == ["Đorđe Đukić"]
    assert names(registration.search_players("djordje", t)) == []  # "đ" is "d", not "dj"
    assert names(registration.search_players("dorde du", t)) == ["Đorđe Đukić"]
    assert names(registration.search_players("lukasz", t)) == ["ŁUKASZ ŻÓŁW"]
    assert names(registration.search_players("zolw", t)) == ["ŁUKASZ ŻÓŁW"]
    assert names(registration.search_players("soren aero", t)) == ["Søren Ærø"]
    assert names(registration.search_players("aeroskobing", t)) == ["Søren Ærø"]
    assert names(registration.search_players("ae", t)) == ["Søren Ærø"]  # ends inside "Æ"
    assert names(registration.search_players("thor gudm", t)) == ["Þór Guðmundsson"]
    assert names(registration.search_players("gud t", t)) == ["Þór Guðmundsson"]  # "t" ends inside "Þ"
    assert names(registration.search_players("oeuvray", t)) == ["Jean Œuvray"]
    assert names(registration.search_players("Đukić", t)) == ["Đorđe Đukić"]  # typed with them too
    assert registration.fold("Đukić Łukasz Søren Ærø Œuvray Þór Straße") == "dukic lukasz soren aero oeuvray thor strasse"


@pytest.mark.django_db
def test_the_database_finds_exactly_what_the_words_rule_finds(players, make_tournament):
    # Every prefix of every word of every name and club, typed plain, folded, upper case and
    # decomposed: the search (database pattern, then the exact check) finds exactly the players
    # the rule finds over the whole register.
    t = make_tournament(players=0)
    everyone = list(Player.objects.all())
    queries = set()
    for name, club in NAMES:
        for word in registration._WORD_BREAK.split(f"{name} {club}"):
            for end in range(1, len(word) + 1):
                prefix = word[:end]
                queries |= {prefix, prefix.upper(), registration.fold(prefix), unicodedata.normalize("NFD", prefix)}
    queries |= {"hofer mair", "Hofer-M imst", "st johann hans", "x", "ss", "ß", "aß", "o'", "-", "'", "  "}
    for query in sorted(queries):
        words = registration.words(query)
        expected = sorted(p.pk for p in everyone if words and registration.matches_words(words, f"{p.name} {p.club}"))
        found = sorted(p.pk for p in registration.search_players(query, t, limit=100))
        assert found == expected, query


@pytest.mark.django_db
def test_the_register_is_not_read_into_python_to_search_it(make_tournament):
    # 2,000 players, three of them Hofer-Mair: the database returns those, not the register.
    t = make_tournament(players=0)
    Player.objects.bulk_create(
        [Player(name=f"Spieler {i:04d} Huber", club="Imst") for i in range(2000)]
        + [Player(name=f"Hofer-Mair {first}", club="Lienz") for first in ("Anna", "Karl", "Maria")]
    )
    loaded = []
    real = Player.from_db.__func__

    def counted(cls, *args, **kwargs):
        loaded.append(1)
        return real(cls, *args, **kwargs)

    with mock.patch.object(Player, "from_db", classmethod(counted)):
        found = registration.search_players("hofer-m", t)
    assert [p.name for p in found] == ["Hofer-Mair Anna", "Hofer-Mair Karl", "Hofer-Mair Maria"]
    assert len(loaded) <= 10


@pytest.mark.django_db
def test_the_search_box_finds_a_hyphenated_name(director_client, make_tournament, players):
    t = make_tournament(players=0)
    url = reverse("tournaments_director:registrations", args=[t.pk])
    html = director_client.get(url, {"q": "Andreas Hofer-Mair"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Andreas Hofer-Mair" in html and "Hofer Martin" not in html
    html = director_client.get(url, {"q": "Kaltenbrunner-V"}).content.decode()  # without the script
    assert "Maria Kaltenbrunner-Vogl" in html
