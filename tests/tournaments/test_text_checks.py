"""Characters a typed text may not hold (tournaments/text.py): control characters anywhere,
direction and invisible characters in names. Each entry point of the player register refuses them
with a message naming the character and where it stands, keeps what was typed and writes nothing;
a file's (or a paste's) leading byte-order mark is its encoding and is ignored."""

import codecs

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.models import Player, Tournament, bidi_problem, no_bidi_controls
from tournaments.registration import importer
from tournaments.registration import register as registration
from tournaments.text import (
    CleanTextFormMixin,
    TextValidator,
    line_problems,
    strip_encoding_mark,
    text_problem,
    visible,
)

ZWSP, BOM, NUL = "\u200b", "\ufeff", "\x00"


# ------------------------------------------------------------------------------- the checks


@pytest.mark.parametrize("value", ["Jože Šuštar", "Hofer-Mair", "O'Brien", "Zoë Łukasiewicz", "Anna  Berger", "Gasthof „Post“, Imst", "Nguyễn Văn Anh"])
def test_plain_and_accented_names_pass(value, english):
    assert text_problem(value, name_like=True) is None


@pytest.mark.parametrize(
    ("value", "options", "message"),
    [
        (f"{BOM}Agathe Merz", {"name_like": True}, "Character 1 is an invisible byte-order mark (U+FEFF), which makes a name look like another; remove it."),
        (f"Agathe{ZWSP}Merz", {"name_like": True}, "Character 7 is an invisible zero-width space (U+200B)"),
        ("Hofer\u00adMair", {"name_like": True}, "Character 6 is an invisible soft hyphen (U+00AD)"),
        ("Anna\u2060Berger", {"name_like": True}, "invisible word joiner (U+2060)"),
        ("Anna\u200dBerger", {"name_like": True}, "invisible zero-width joiner (U+200D)"),
        ("Anna\u3164Berger", {"name_like": True}, "invisible blank filler letter (U+3164)"),
        ("Anna\U000e0041", {"name_like": True}, "invisible formatting character (U+E0041)"),
        (f"Anna{NUL}", {}, "Character 5 is a null character (U+0000), which cannot be stored as text; remove it."),
        ("Anna\x85", {}, "Character 5 is a control character (U+0085)"),
        ("Anna\x1bBerger", {"name_like": True}, "control character (U+001B)"),
        ("Anna\tBerger", {}, "Character 5 is a tab (U+0009), which this one-line field cannot hold"),
        ("Anna\u2028Berger", {}, "a line break (U+2028)"),
        ("erste Zeile\r\nzwei\x00", {"multiline": True}, "Line 2, character 5 is a null character (U+0000)"),
        ("Anna \u202eregeB", {"name_like": True}, "“Anna regeB” holds the invisible direction character U+202E"),
        ("\u200fAnna", {"name_like": True}, "direction character U+200F"),
        ("Anna\u2066Berger\u2069", {"name_like": True}, "direction character U+2066"),
        ("\u061cAnna", {"name_like": True}, "direction character U+061C"),
    ],
)
def test_a_refused_character_is_named_with_its_code_and_place(value, options, message, english):
    assert message in text_problem(value, **options)


def test_free_text_may_hold_what_a_name_may_not_but_never_a_control_character(english):
    assert text_problem("Pagat \u202evergessen", name_like=False) is None  # a comment may quote right-to-left text
    assert text_problem(f"zu{ZWSP}viel", name_like=False) is None
    assert text_problem("Zeile 1\r\nZeile\t2", multiline=True) is None
    assert "null character" in text_problem(f"Pagat{NUL}", name_like=False)


def test_every_bad_line_of_a_longer_text_is_named(english):
    problems = line_problems(f"ok\n{NUL}a\r\nb{ZWSP}\nfine\n\u202eX", name_like=True)
    assert sorted(problems) == [2, 3, 5]
    assert problems[2].startswith("Line 2, character 1 is a null character")
    assert problems[3].startswith("Line 3, character 2 is an invisible zero-width space")
    assert problems[5].startswith("Line 5: “X” holds the invisible direction character U+202E")


def test_the_validator_the_model_validator_and_the_old_name_keep_working(english):
    with pytest.raises(ValidationError) as refused:
        TextValidator(name_like=True)(f"{BOM}Agathe")
    assert refused.value.code == "text" and "U+FEFF" in refused.value.messages[0]
    TextValidator()(f"{BOM}Agathe")  # not a name: no complaint
    TextValidator()({"a": NUL})  # not a string (a JSON field's data): passes
    assert TextValidator(name_like=True) == TextValidator(name_like=True) != TextValidator()
    # The player register's model validator, which the migrations name, now sees the marks too.
    with pytest.raises(ValidationError):
        no_bidi_controls("\u200eAnna")
    assert "U+202E" in bidi_problem("Anna \u202eregeB") and bidi_problem("Anna Berger") is None
    with pytest.raises(ValidationError):
        Player(name="Anna \u202eregeB").full_clean()


def test_the_form_mixin_checks_every_text_field_also_those_added_later(english):
    class Form(CleanTextFormMixin, forms.Form):
        name_like_fields = ("name",)
        text_check_exempt = ("copy",)
        name = forms.CharField()
        remark = forms.CharField(required=False)
        notes = forms.CharField(widget=forms.Textarea, required=False)
        copy = forms.CharField(required=False)
        count = forms.IntegerField(required=False)

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fields["later"] = forms.CharField(required=False)

    data = {"name": f"Agathe{ZWSP}Merz", "remark": f"ok{ZWSP}", "notes": "a\tb\r\nc", "copy": f"x{NUL}", "later": f"y{NUL}", "count": "3"}
    form = Form(data)
    assert not form.is_valid()
    assert set(form.errors) == {"name", "later"}  # a remark is no name; the notes have lines; the copy is exempt
    assert form.errors["later"] == ["Character 2 is a null character (U+0000), which cannot be stored as text; remove it."]  # once, not Django's too
    assert form["name"].value() == f"Agathe{ZWSP}Merz"  # kept as typed
    assert Form({**data, "name": "Jože Šuštar", "later": "Hofer-Mair"}).is_valid()


def test_a_leading_mark_is_encoding_and_invisible_characters_do_not_make_another_name():
    assert strip_encoding_mark(f"{BOM}Agathe Merz{BOM}") == f"Agathe Merz{BOM}"
    assert strip_encoding_mark("Agathe") == "Agathe"
    assert visible(f"{BOM}Aga{ZWSP}the\u00ad Merz") == "Agathe Merz"
    assert registration.name_key(f"{BOM}Agathe Merz") == registration.name_key("Merz Agathe")


# ------------------------------------------------------------------------------- the player form


@pytest.mark.django_db
def test_the_player_form_refuses_a_marked_name_keeps_it_and_adds_nobody(director_client, english):
    Player.objects.create(name="Agathe Merz", club="Lienz")
    url = reverse("tournaments_director:player_create")
    response = director_client.post(url, {"name": f"{BOM}Agathe Merz", "club": "Lienz"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Character 1 is an invisible byte-order mark (U+FEFF), which makes a name look like another; remove it." in page
    assert f'value="{BOM}Agathe Merz"' in page  # what was typed stays in the form
    response = director_client.post(url, {"name": "Agathe Merz", "club": f"Lie{NUL}nz"})
    assert response.status_code == 200 and "Character 4 is a null character (U+0000)" in response.content.decode()
    response = director_client.post(url, {"name": f"Agathe{ZWSP} Merz", "club": ""})
    assert response.status_code == 200 and "zero-width space (U+200B)" in response.content.decode()
    assert list(Player.objects.values_list("name", flat=True)) == ["Agathe Merz"]
    # Plain accented names pass.
    assert director_client.post(url, {"name": "Jože Šuštar", "club": "Hofer-Mair"}).status_code == 302
    assert Player.objects.filter(name="Jože Šuštar", club="Hofer-Mair").exists()


@pytest.mark.django_db
def test_editing_a_player_refuses_the_same(director_client, english):
    agathe = Player.objects.create(name="Agathe Merz", club="Lienz")
    response = director_client.post(reverse("tournaments_director:player_edit", args=[agathe.pk]), {"name": "Agathe \u202eztreM", "club": "Lienz"})
    assert response.status_code == 200 and "U+202E" in response.content.decode()
    agathe.refresh_from_db()
    assert agathe.name == "Agathe Merz"


# ------------------------------------------------------------------------------- the pasted list


def registrations_url(t):
    return reverse("tournaments_director:registrations", args=[t.pk])


@pytest.mark.django_db
def test_a_pasted_list_starting_with_a_mark_registers_the_register_player_not_a_second_one(director_client, make_tournament, english):
    t = make_tournament(players=0)
    agathe = Player.objects.create(name="Agathe Merz", club="Lienz")
    response = director_client.post(registrations_url(t), {"names": f"{BOM}Agathe Merz; Lienz\nJože Šuštar; Bled\nHofer-Mair"})
    assert response.status_code == 302
    assert list(t.registrations.order_by("start_number").values_list("player__name", flat=True)) == ["Agathe Merz", "Jože Šuštar", "Hofer-Mair"]
    assert t.registrations.get(start_number=1).player == agathe
    assert Player.objects.filter(name__contains="Agathe").count() == 1


@pytest.mark.django_db
def test_a_mark_or_zero_width_space_inside_the_list_is_refused_by_line(director_client, make_tournament, english):
    t = make_tournament(players=0)
    Player.objects.create(name="Agathe Merz", club="Lienz")
    text = f"Jože Šuštar\n{BOM}Agathe Merz\nKarl{ZWSP} Dorn; Imst\nHans Falk; Vo\u202emp"
    response = director_client.post(registrations_url(t), {"names": text})
    page = response.content.decode()
    assert response.status_code == 422
    assert "Line 2, character 1 is an invisible byte-order mark (U+FEFF)" in page
    assert "Line 3, character 5 is an invisible zero-width space (U+200B)" in page
    assert "Line 4: “Hans Falk; Vomp” holds the invisible direction character U+202E" in page
    assert "Jože Šuštar" in page and "Karl" in page  # the list comes back as typed
    assert not t.registrations.exists() and Player.objects.count() == 1


@pytest.mark.django_db
def test_a_control_character_in_the_list_or_the_new_player_fields_is_refused(director_client, make_tournament, english):
    t = make_tournament(players=0)
    response = director_client.post(registrations_url(t), {"names": f"Anna Berger\nKarl{NUL}Dorn"})
    assert response.status_code in (200, 422)
    assert "Line 2, character 5 is a null character (U+0000)" in response.content.decode()
    response = director_client.post(registrations_url(t), {"new_name": f"{BOM}Agathe Merz", "new_club": "Lienz"})
    page = response.content.decode()
    assert response.status_code in (200, 422) and "byte-order mark (U+FEFF)" in page and 'value="Lienz"' in page
    assert not t.registrations.exists() and not Player.objects.exists()


# ------------------------------------------------------------------------------- the player import


def import_url(t):
    return reverse("tournaments_director:import_players", args=[t.pk])


@pytest.mark.django_db
def test_a_leading_mark_of_an_imported_csv_is_ignored(director_client, make_tournament, english):
    t = make_tournament(players=0)
    agathe = Player.objects.create(name="Agathe Merz", club="Lienz")
    content = codecs.BOM_UTF8 + "Name;Verein\nAgathe Merz;Lienz\nJože Šuštar;Bled\n".encode()
    preview = importer.parse_players("liste.csv", content, t)
    assert not preview.problems and [(r.name, r.club) for r in preview.rows] == [("Agathe Merz", "Lienz"), ("Jože Šuštar", "Bled")]
    response = director_client.post(import_url(t), {"file": SimpleUploadedFile("liste.csv", content)})
    assert response.status_code == 200 and "Import 2 players" in response.content.decode()
    director_client.post(import_url(t), {"import": "1", "digest": response.context["digest"]})
    assert t.registrations.get(player__name="Agathe Merz").player == agathe  # the register's Agathe
    assert Player.objects.count() == 2
    # A header-less file: the mark does not stick to the first name.
    preview = importer.parse_players("liste.csv", codecs.BOM_UTF8 + "Agathe Merz;Lienz\n".encode())
    assert [r.name for r in preview.rows] == ["Agathe Merz"]


def test_a_utf16_file_as_excel_saves_unicode_text_is_read():
    content = codecs.BOM_UTF16_LE + "Name\tVerein\r\nJože Šuštar\tBled\r\n".encode("utf-16-le")
    preview = importer.parse_players("liste.txt", content)
    assert not preview.problems and [(r.name, r.club) for r in preview.rows] == [("Jože Šuštar", "Bled")]


@pytest.mark.django_db
def test_an_imported_name_with_an_inner_mark_or_zero_width_space_is_refused_by_row(director_client, make_tournament, english):
    t = make_tournament(players=0)
    Player.objects.create(name="Agathe Merz", club="Lienz")
    content = f"Name;Verein\nJože Šuštar;Bled\nAgathe{ZWSP} Merz;Lienz\nHans Falk;{BOM}Vomp\n".encode()
    response = director_client.post(import_url(t), {"file": SimpleUploadedFile("liste.csv", content)})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Line 3: Name: Character 7 is an invisible zero-width space (U+200B)" in page
    assert "Line 4: Town or club: Character 1 is an invisible byte-order mark (U+FEFF)" in page
    assert 'name="import"' not in page  # no import offered while a row is refused
    assert response.context["preview"].rows and [r.line for r in response.context["preview"].rows] == [2]
    assert not t.registrations.exists() and Player.objects.count() == 1


# ------------------------------------------------------------------------------- the tournament form


def tournament_data(**changes):
    return {"name": "Herbstturnier", "date": "2026-11-21", "venue": "Gasthof Post", "ruleset_edition": "tiroler-tarockcup|2019/20",
            "rounds": "3", "hands_per_round": "16", "draw_mode": "avoid_repeats", "status": "planned", **changes}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "Herbst\u202eturnier", "holds the invisible direction character U+202E"),
        ("name", f"Herbst{ZWSP}turnier", "Character 7 is an invisible zero-width space (U+200B)"),
        ("name", f"Herbst{NUL}turnier", "Character 7 is a null character (U+0000)"),
        ("venue", f"{BOM}Gasthof Post", "Character 1 is an invisible byte-order mark (U+FEFF)"),
    ],
)
def test_the_tournament_form_refuses_a_bad_name_and_keeps_what_was_typed(director_client, field, value, message, english):
    response = director_client.post(reverse("tournaments_director:create"), tournament_data(**{field: value}))
    page = response.content.decode()
    assert response.status_code == 200 and message in page
    assert 'value="Gasthof Post"' in page or 'value="Herbstturnier"' in page
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_an_accented_tournament_name_passes(director_client):
    response = director_client.post(reverse("tournaments_director:create"), tournament_data(name="Turnir Šuštar-Žagar", venue="Gostilna Jože"))
    assert response.status_code == 302 and Tournament.objects.get().name == "Turnir Šuštar-Žagar"


@pytest.mark.django_db
def test_names_stored_with_an_invisible_character_before_are_found_as_duplicates():
    kept = Player.objects.create(name="Agathe Merz", club="Lienz")
    marked = Player.objects.create(name=f"{BOM}Agathe Merz", club="Lienz")  # stored before the checks
    assert registration.duplicate_groups() == [[kept, marked]] or registration.duplicate_groups() == [[marked, kept]]
