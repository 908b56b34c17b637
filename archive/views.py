"""The archive's pages: the organiser downloads a tournament as one archive (:class:`BackupView`)
or deletes it, its archive written first (:class:`DeleteTournamentView`); and restoring a tournament
from its archive (:class:`RestoreView`): upload → what the archive holds
(or the refusal that names why) → restore it as a new tournament with one more click.

Who: a user allowed to create tournaments (``tournaments.add_tournament``, the "Organisers"
group; the same check as the new-tournament page). He becomes the restored tournament's organiser.

Between the two steps the upload waits as a file of its own in ``DATA_DIR/restore/``, named by
its user's id and a random token (``u<user id>-<token>.tarock.json.gz``; the session only names
it, with its SHA-256 digest): an archive may be several megabytes, too much for a session row. It
is bounded per user, so no organiser's uploads make another's give way: at most
:data:`MAX_UPLOAD_BYTES` a file, :data:`PENDING_PER_USER` waiting per user (whatever his sessions;
his oldest gives way to a new one), and none older than :data:`PENDING_HOURS` hours (each upload
sweeps the folder by age). The folder holds at most that many uploads of each user allowed to
restore, the organisers of the site. The confirmation takes the file away by renaming it before it
restores anything, so of a double click or a second tab with the same confirmation only one
restores; the other is told it was restored already.

The tournament's organiser also downloads its archive (:class:`BackupView`) and deletes it, an
archive written first (:class:`DeleteTournamentView`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import time
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View
from django.views.generic import TemplateView

from archive import backup
from tournaments import roles
from tournaments.atomic import write_atomically
from tournaments.models import Tournament, TournamentRole
from tournaments.permissions import Level, RoleRequiredMixin, SitePermissionRequiredMixin

# The largest archive taken: the packed size the backup module reads at most.
MAX_UPLOAD_BYTES = backup.MAX_PACKED_BYTES
PENDING_PER_USER = 3
PENDING_HOURS = 6
PENDING_SUFFIX = ".tarock.json.gz"
SESSION_PENDING = "tournament_restore_pending"  # {token: {"digest": sha256, "name": file name}}
SESSION_DONE = "tournament_restore_done"  # {token: [restored tournament id, digest]}, the latest few
TOKEN_CHARS = set("0123456789abcdef")


class ArchiveForm(forms.Form):
    """The upload: one tournament archive (``.tarock.json.gz``) of at most :data:`MAX_UPLOAD_BYTES`."""

    file = forms.FileField(
        label=gettext_lazy("Tournament archive"),
        widget=forms.ClearableFileInput(attrs={"accept": ".gz,application/gzip"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = _(
            "A .tarock.json.gz file as the tournament page's “Backup (archive)” or the scheduled backups write it, at most %(size)s."
        ) % {"size": filesizeformat(MAX_UPLOAD_BYTES)}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:  # known before a byte of it is read into memory
            raise forms.ValidationError(
                _("The file is %(size)s; an archive of at most %(limit)s is taken.")
                % {"size": filesizeformat(upload.size), "limit": filesizeformat(MAX_UPLOAD_BYTES)}
            )
        return upload


def pending_folder() -> Path:
    """Where uploads wait for their confirmation: ``DATA_DIR/restore``."""
    return Path(settings.DATA_DIR) / "restore"


def _pending_path(token: str, user_id: int) -> Path:
    return pending_folder() / f"u{user_id}-{token}{PENDING_SUFFIX}"


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return None


def _sweep(folder: Path) -> None:
    """Remove every file of ``folder`` older than :data:`PENDING_HOURS` hours: uploads nobody
    confirmed, and what a killed request left (``*.claimed-*`` while restored, temporary files)."""
    limit = time.time() - PENDING_HOURS * 3600
    for path in folder.iterdir():
        mtime = _mtime(path)
        if mtime is not None and mtime < limit:
            _remove(path)


def _make_room(folder: Path, user_id: int) -> None:
    """Remove the oldest uploads of user ``user_id`` waiting in ``folder`` beyond the newest
    :data:`PENDING_PER_USER` − 1, to leave room for his new one; nobody else's are touched."""
    waiting = []
    for path in folder.glob(f"u{user_id}-*{PENDING_SUFFIX}"):
        mtime = _mtime(path)
        if mtime is not None:
            waiting.append((mtime, path.name, path))
    waiting.sort(reverse=True)
    for _when, _name, path in waiting[PENDING_PER_USER - 1:]:
        _remove(path)


def _keep_upload(content: bytes, user_id: int) -> str:
    """Write ``content``, uploaded by user ``user_id``, to a new file under a random name in
    :func:`pending_folder`, whole or not at all (:func:`tournaments.atomic.write_atomically`), and
    return its token; first the folder is swept by age and his oldest uploads beyond
    :data:`PENDING_PER_USER` give way. Raises :class:`OSError` (a full disk) with nothing left
    behind."""
    folder = pending_folder()
    folder.mkdir(parents=True, exist_ok=True)
    _sweep(folder)
    _make_room(folder, user_id)
    token = secrets.token_hex(16)
    write_atomically(_pending_path(token, user_id), content)
    return token


def _token(value) -> str | None:
    """A token as :func:`_keep_upload` makes them, or ``None``: nothing else reaches a file name."""
    return value if isinstance(value, str) and len(value) == 32 and set(value) <= TOKEN_CHARS else None


def _roles_text(skipped_roles) -> str:
    return ", ".join(_("%(user)s (%(role)s)") % {"user": user, "role": _role_label(role)} for user, role in skipped_roles)


def _role_label(role: str) -> str:
    try:
        return str(TournamentRole.Level(role).label)
    except ValueError:
        return role


class RestoreView(SitePermissionRequiredMixin, View):
    """GET: the upload form. POST a file: what the archive holds, or why it is refused (422;
    nothing is kept then). POST ``restore`` with ``upload`` (the token) and ``digest``: restore
    the archive shown as a new tournament, make the user its organiser and go to it, with the
    roles that could not be restored and the users kept by name only in the messages. The
    tournament joins the archive's cup only where this user keeps that cup
    (:func:`archive.backup.restore_cup`); the page says before the confirmation which cup it
    joins or why not, and the messages say it again after the restore, with each cup of its
    Ö-Finale this site lacks (left out, :func:`archive.backup.restore_finale_cups`).

    Anonymous users are sent to the login, users without ``tournaments.add_tournament`` get 403."""

    permission_required = "tournaments.add_tournament"
    template_name = "archive/restore.html"

    def render(self, form, summary=None, token=None, digest=None, refusal=None, status=200):
        earlier = None
        if digest is not None:  # this very file restored before, from this session
            done = [pk for pk, seen in (self.request.session.get(SESSION_DONE) or {}).values() if seen == digest]
            earlier = Tournament.objects.filter(pk__in=done).order_by("-pk").first()
        return render(
            self.request,
            self.template_name,
            {
                "form": form,
                "summary": summary,
                "upload": token,
                "digest": digest,
                "refusal": refusal,
                "earlier": earlier,
            },
            status=status,
        )

    def get(self, request):
        return self.render(ArchiveForm())

    def post(self, request):
        if "restore" in request.POST:
            return self.restore(request)
        form = ArchiveForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render(form, status=422)
        upload = form.cleaned_data["file"]
        content = upload.read()
        try:
            summary = backup.summarize(content, user=request.user)
        except backup.BackupRefused as refused:
            return self.render(ArchiveForm(), refusal=refused.message, status=422)
        try:
            token = _keep_upload(content, request.user.pk)
        except OSError as error:
            return self.render(
                ArchiveForm(),
                summary=summary,
                refusal=_("The server could not keep the upload until you confirm (%(error)s); nothing was restored.") % {"error": error.strerror or error},
                status=507,
            )
        digest = hashlib.sha256(content).hexdigest()
        pending = dict(request.session.get(SESSION_PENDING) or {})
        pending[token] = {"digest": digest, "name": upload.name[:200]}
        while len(pending) > PENDING_PER_USER:  # the session names no more than he may have waiting
            _remove(_pending_path(next(iter(pending)), request.user.pk))
            del pending[next(iter(pending))]
        request.session[SESSION_PENDING] = pending
        return self.render(ArchiveForm(), summary=summary, token=token, digest=digest)

    def _already(self, request, token):
        """The answer to a confirmation whose upload is gone: restored already (then to that
        tournament), restored this moment by another click, or too old."""
        done = (request.session.get(SESSION_DONE) or {}).get(token) if token else None
        tournament = Tournament.objects.filter(pk=done[0]).first() if done else None
        if tournament is not None:
            messages.info(request, _("This archive was restored already, as %(name)s; nothing was restored again.") % {"name": tournament.name})
            return redirect(tournament.get_absolute_url())
        messages.error(
            request,
            _("Nothing was restored: this upload was restored already or has expired. Upload the file again if the tournament is missing."),
        )
        return redirect("archive:restore")

    def restore(self, request):
        token = _token(request.POST.get("upload"))
        pending = dict(request.session.get(SESSION_PENDING) or {})
        stored = pending.get(token) if token else None
        if stored is None or stored.get("digest") != request.POST.get("digest"):
            return self._already(request, token)
        path = _pending_path(token, request.user.pk)
        claimed = path.with_name(path.name + f".claimed-{secrets.token_hex(4)}")
        try:
            os.rename(path, claimed)  # only one confirmation gets the file
        except FileNotFoundError:
            return self._already(request, token)
        try:
            content = claimed.read_bytes()
            if hashlib.sha256(content).hexdigest() != stored["digest"]:
                raise backup.BackupRefused(_("The uploaded file changed on the server since it was shown; nothing was restored."))
            with transaction.atomic():
                restored = backup.restore(content, user=request.user)
                tournament = restored.tournament
                if not TournamentRole.objects.filter(tournament=tournament, user=request.user, level=TournamentRole.Level.ORGANISER).exists():
                    roles.give_role(tournament, request.user.get_username(), TournamentRole.Level.ORGANISER, by=request.user)
        except backup.BackupRefused as refused:
            _remove(claimed)
            pending.pop(token, None)
            request.session[SESSION_PENDING] = pending
            messages.error(request, refused.message)
            return redirect("archive:restore")
        except roles.RoleRefused as refused:  # the user himself is not active: nothing is kept
            os.replace(claimed, path)
            messages.error(request, refused.message)
            return redirect("archive:restore")
        except BaseException:
            with contextlib.suppress(OSError):
                os.replace(claimed, path)  # not restored: the same confirmation may be tried again
            raise
        _remove(claimed)
        pending.pop(token, None)
        request.session[SESSION_PENDING] = pending
        done = dict(request.session.get(SESSION_DONE) or {})
        done[token] = [tournament.pk, stored["digest"]]
        request.session[SESSION_DONE] = dict(list(done.items())[-10:])
        messages.success(request, _("%(name)s is restored as a new tournament; you are its organiser.") % {"name": tournament.name})
        summary = restored.summary
        if summary.cup:
            messages.info(request, _("It is in the cup %(cup)s.") % {"cup": summary.cup})
        if summary.cup_dropped:
            messages.warning(request, summary.cup_dropped)
        for notice in summary.oe_finale_dropped:  # a cup of its Ö-Finale this site lacks
            messages.warning(request, notice)
        if summary.granted_roles:
            messages.warning(
                request,
                _("These roles were given to the users of this site with these user names: %(roles)s. Check that they are the same people on the Roles page.")
                % {"roles": _roles_text(summary.granted_roles)},
            )
        if summary.skipped_roles:
            messages.warning(
                request,
                _("These roles could not be restored (no such user on this site, or he had a role already): %(roles)s. Give them on the Roles page.")
                % {"roles": _roles_text(summary.skipped_roles)},
            )
        if summary.unknown_users:
            messages.info(
                request,
                _("Kept by name only, as there is no such user on this site: %(users)s.") % {"users": ", ".join(summary.unknown_users)},
            )
        return redirect(tournament.get_absolute_url())


class BackupView(RoleRequiredMixin, View):
    """The organiser downloads the tournament as one archive (:mod:`archive.backup`), to keep
    or to restore elsewhere with ``manage.py import_tournament``."""

    required_role = Level.ORGANISER

    def get(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        response = HttpResponse(backup.export_tournament(tournament), content_type="application/gzip")
        stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M")
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-{stamp}.tarock.json.gz"'
        response["Cache-Control"] = "no-store"
        return response


class DeleteTournamentView(RoleRequiredMixin, TemplateView):
    """Delete the tournament: the organiser types its name to confirm; an archive of it is written
    to ``DATA_DIR/backups`` first (restorable with ``manage.py import_tournament``)."""

    required_role = Level.ORGANISER
    template_name = "archive/delete.html"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "tournament": get_object_or_404(Tournament, pk=self.kwargs["pk"])}

    def post(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        if request.POST.get("confirm", "").strip() != tournament.name.strip():
            messages.error(request, _("Nothing was deleted: type the tournament's name exactly to confirm."))
            return self.render_to_response(self.get_context_data(), status=422)
        try:
            path = backup.delete_with_backup(tournament)
        except backup.BackupRefused as refused:  # no archive that reads back: nothing deleted
            messages.error(request, refused.message)
            return self.render_to_response(self.get_context_data(), status=503)  # the server cannot keep an archive now (a full disk): try again later
        messages.success(
            request, _("%(name)s is deleted. Its archive is kept in %(path)s.") % {"name": tournament.name, "path": path}
        )
        return redirect("tournaments:list")
