"""Exports as registered exporters, after pretix's ``BaseExporter``: each download (the standings
workbook, a round's table results as PDF, ...) is a class with an identifier, a name, an audience,
a format and ``render()``. One view serves them all (:mod:`scoring.exporters.views`).

Rendered once per data version. A rendered file is kept in Django's default storage under the
tournament's data version (:mod:`tournaments.versioning`) and the language; a repeated download of
an unchanged export is read from there. Heavy ones (``is_heavy``: the table results or score sheets
of a big field) are rendered by the background worker (:mod:`scoring.exporters.tasks`) while the page says
how far it got.

A file is stored whole or not at all (:func:`store`, :mod:`tournaments.atomic`): a full disk or a
killed render never leaves a partial file that a later request would serve. Only canonical
parameters (:meth:`BaseExporter.params`: rounds and values that exist) reach a file name, and an
anonymous render is rate-limited by the download view.
"""

from __future__ import annotations

import logging
import os
import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import Http404
from django.utils.text import slugify

from tournaments.atomic import remove_stale_temporaries, write_atomically
from tournaments.models import Round, Tournament

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]  # (done, total) units of work, e.g. tables


def no_progress(done: int, total: int) -> None:
    """The progress callback of a render nobody watches."""


class Audience:
    """Who may download an export: everybody, or directors only (private links on the sheet)."""

    PUBLIC = "public"
    DIRECTOR = "director"


@dataclass(frozen=True)
class ExportFormat:
    extension: str
    content_type: str


XLSX = ExportFormat("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
PDF = ExportFormat("pdf", "application/pdf")
CSV = ExportFormat("csv", "text/csv; charset=utf-8")


class BaseExporter:
    """One kind of download.

    Subclasses set ``identifier`` (the URL slug, unique), ``verbose_name`` (lazy text for menus),
    ``audience``, ``format``, ``per_round`` (whether the URL names a round) and implement
    :meth:`render`. Parameters from the query string are read by :meth:`params` into a small dict of
    canonical values, so two spellings of the same request share one rendered file; anything else
    in the query is ignored, and a value naming something that does not exist is a 404.
    """

    identifier: str = ""
    verbose_name = ""
    audience: str = Audience.PUBLIC
    format: ExportFormat = PDF
    per_round: bool = False

    def params(self, tournament: Tournament, query: Mapping[str, str], number: int | None) -> dict:
        """Canonical parameters of a request: ``{"round": n}`` for a per-round export (404 if the
        round does not exist), plus what :meth:`extra_params` reads from ``query``."""
        params = {}
        if self.per_round:
            if number is None or not Round.objects.filter(tournament=tournament, number=number).exists():
                raise Http404("no such round")
            params["round"] = number
        params.update(self.extra_params(tournament, query))
        return params

    def extra_params(self, tournament: Tournament, query: Mapping[str, str]) -> dict:
        """Parameters from the query string (none by default): only canonical values of what
        exists (a drawn round, a number from a short list), since they become part of the
        stored file's name; ``Http404`` for a value naming something that does not exist."""
        return {}

    def round(self, tournament: Tournament, params: dict) -> Round:
        """The round a per-round export is of, with its tournament."""
        rnd = Round.objects.select_related("tournament").get(tournament=tournament, number=params["round"])
        rnd.tournament = tournament
        return rnd

    def units(self, tournament: Tournament, params: dict) -> int:
        """How much work the export is, in the units its progress counts (tables); 1 by default."""
        return 1

    heavy_from: int | None = None  # units from which the worker renders it; None: never

    def is_heavy(self, tournament: Tournament, params: dict) -> bool:
        """Whether the worker renders it (the request would take seconds): from ``heavy_from`` units
        on, or from the number ``settings.EXPORT_HEAVY_FROM`` gives for its identifier; and every
        export of a field over :data:`FIELD_INLINE_MAX` players (a 100,000-player standings PDF
        rendered inline held a server process for minutes)."""
        limit = settings.EXPORT_HEAVY_FROM.get(self.identifier, self.heavy_from)
        if limit is not None and self.units(tournament, params) >= limit:
            return True
        return tournament.registrations.count() > FIELD_INLINE_MAX

    def filename(self, tournament: Tournament, params: dict) -> str:
        """The download's name, e.g. ``cup-schwaz-2026-12-05-round-1-results.pdf``."""
        stem = f"{slugify(tournament.name) or 'tournament'}-{tournament.date:%Y-%m-%d}"
        return f"{stem}-{self.suffix(params)}.{self.format.extension}"

    def suffix(self, params: dict) -> str:
        """The part of the file name after the tournament and date, without the extension."""
        return f"round-{params['round']}-{self.identifier}" if self.per_round else self.identifier

    def render(self, tournament: Tournament, params: dict, progress: Progress = no_progress) -> bytes:
        """The file's content. ``progress(done, total)`` may be called as the work goes on."""
        raise NotImplementedError


FIELD_INLINE_MAX = 1000  # players; a larger field's exports are always rendered by the worker

_registry: dict[str, BaseExporter] = {}


def register(cls: type[BaseExporter]) -> type[BaseExporter]:
    """Class decorator: make an exporter available under its ``identifier``. Raises
    ``ValueError`` for an identifier already taken."""
    exporter = cls()
    if not exporter.identifier or exporter.identifier in _registry:
        raise ValueError(f"exporter identifier {exporter.identifier!r} is empty or taken")
    _registry[exporter.identifier] = exporter
    return cls


def get_exporter(identifier: str) -> BaseExporter:
    """The registered exporter, or ``Http404``."""
    try:
        return _registry[identifier]
    except KeyError:
        raise Http404("no such export") from None


def exporters() -> list[BaseExporter]:
    """Every registered exporter, in the order registered."""
    return list(_registry.values())


def params_key(params: dict) -> str:
    """A stable text for ``params``: ``"places=3,round=2"`` (``""`` for none)."""
    return ",".join(f"{k}={params[k]}" for k in sorted(params))


def storage_name(tournament_id: int, identifier: str, key: str, language: str, version: str, extension: str) -> str:
    """Where a rendered export is kept: ``exports/<tournament>/<exporter>/<params>.<lang>.v<version>.<ext>``,
    ``version`` the data version stamp (:func:`tournaments.versioning.stamp`)."""
    stem = slugify(key.replace(",", "_").replace("=", "-")) or "all"
    return posixpath.join("exports", str(tournament_id), identifier, f"{stem}.{language}.v{version}.{extension}")


def stored(name: str) -> bool:
    """Whether the rendered export ``name`` (:func:`storage_name`) is kept, whole: :func:`store`
    writes under a temporary name that never equals a final one."""
    return default_storage.exists(name)


def _data_version(base: str, prefix: str) -> int | None:
    """The data version in a stored file's name after ``prefix`` (``"12"`` of ``"12.1732….pdf"``)."""
    head = base[len(prefix) :].split(".", 1)[0]
    return int(head) if head.isdigit() else None


def store(name: str, content: bytes) -> str:
    """Keep ``content`` under ``name`` and delete the older versions of the same export (same
    folder, same parameters and language, a lower data version: a slow render of an old version
    finishing late never removes a newer file). Returns the name it was stored under (a second
    render of the same version finding the first stored keeps the first).

    The file is written whole or not at all: on the file system storage (the default, under
    ``MEDIA_ROOT``) through a temporary file in the same folder, synced and renamed
    (:func:`tournaments.atomic.write_atomically`); another storage (an object store) writes whole
    objects itself. Raises ``OSError`` (a full disk: ``ENOSPC``) with nothing stored under
    ``name``; the caller serves the rendered content anyway or reports the failure."""
    if default_storage.exists(name):
        return name
    try:
        path = default_storage.path(name)
    except NotImplementedError:
        saved = default_storage.save(name, ContentFile(content))
    else:
        write_atomically(path, content, mode=default_storage.file_permissions_mode)
        saved = name
        remove_stale_temporaries(os.path.dirname(path))
    folder, base = posixpath.split(name)
    prefix = base.rsplit(".v", 1)[0] + ".v"
    own = _data_version(base, prefix)
    try:
        _dirs, files = default_storage.listdir(folder)
    except (FileNotFoundError, NotImplementedError):
        return saved
    for other in files:
        path = posixpath.join(folder, other)
        older = other.startswith(prefix) and (_data_version(other, prefix) or 0) < (own or 0)
        if older and path != saved:
            try:
                default_storage.delete(path)
            except OSError:  # served to someone right now on another system: next time
                log.info("could not delete the old export %s", path)
    return saved

