"""The pages of a tournament for the people who run it: its roles (its organiser gives and takes
them, creates the account of someone who has none, makes a one-time sign-in link for a user
without a password or sets a one-time password for a user who forgot his), for its organisers;
and its action log (for organisers and directors, filterable). Its backup archive and deleting
it (a backup written first) are the archive's pages (:mod:`archive.views`)."""

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, redirect
from django.utils.cache import add_never_cache_headers
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import ListView, TemplateView, View

from tournaments import passwords, roles, sign_in_links

from .models import ActionLog, Tournament, TournamentRole
from .permissions import Level, RoleRequiredMixin
from .posted import whole_number


class RoleForm(forms.Form):
    """Who gets which role: a user name of this site and the role. The form offers the scorer's
    role first-chosen, the one given most on a day and the least an organiser can give by mistake
    (an organiser's role lets its holder change the roles)."""

    username = forms.CharField(label=gettext_lazy("User name"), max_length=150)
    level = forms.ChoiceField(
        label=gettext_lazy("Role"), choices=TournamentRole.Level.choices, initial=TournamentRole.Level.SCORER
    )


# The session's note of a one-time password to show once on the Roles page: {"tournament": pk,
# "user": pk, "password": the password, "auth_hash": the user's session auth hash when it was set}.
ONE_TIME_SHOWN_KEY = "one_time_password_to_show"
# The session's note of a sign-in link to show once on the Roles page: {"tournament": pk, "user":
# pk, "secret": the secret the link's key is derived from (tournaments.sign_in_links)}.
LINK_SHOWN_KEY = "sign_in_link_to_show"


class RolesView(RoleRequiredMixin, TemplateView):
    """The tournament's roles, and the form that gives one (POST ``username``, ``level``).

    A name without an account is answered with the form again, saying so, and a button that
    posts it again with ``create=<that name>``: the account is created (:func:`tournaments.roles.give_role`)
    and a sign-in link made for it at once (:func:`tournaments.sign_in_links.make_link`).

    POST ``one_time`` (a role's id) sets a one-time password for that role's user
    (:func:`tournaments.passwords.set_one_time_password`), POST ``sign_in_link`` (a role's id)
    makes a new sign-in link for him; both redirect to this page, which shows the password or the
    link (with its QR code) once (post-redirect-get: a reload shows the page without it and makes
    no other): it waits in the session only until that GET takes it out, and that answer is never
    cached (``Cache-Control: no-store``). If it was replaced in between (a second click, or
    another organiser, made a newer one) or used already, it is not shown and the page says so."""

    required_role = Level.ORGANISER
    template_name = "tournaments/roles.html"

    def get(self, request, *args, **kwargs):
        context = self.get_context_data(**kwargs)
        one_time = self.one_time_to_show(request, context["tournament"])
        if one_time is not None:
            context["one_time"] = one_time
        link = self.link_to_show(request, context["tournament"])
        if link is not None:
            context["sign_in_link"] = link
        response = self.render_to_response(context)
        add_never_cache_headers(response)  # no-store: a password shown here stays in no cache
        return response

    def one_time_to_show(self, request, tournament) -> dict | None:
        """The one-time password set on this tournament's page for this session, taken out of
        the session: ``{"user", "password", "hours"}``, or ``None`` (none waiting, or replaced
        since, which a message then says)."""
        waiting = request.session.get(ONE_TIME_SHOWN_KEY)
        if not isinstance(waiting, dict) or waiting.get("tournament") != tournament.pk:
            return None
        del request.session[ONE_TIME_SHOWN_KEY]
        user = get_user_model().objects.filter(pk=waiting.get("user")).first()
        if user is None or not constant_time_compare(user.get_session_auth_hash(), waiting.get("auth_hash", "")):
            messages.warning(
                request,
                _("The one-time password just set is not shown: a newer one was set since (or it was used already). Set another if he still needs one."),
            )
            return None
        return {"user": user, "password": waiting["password"], "hours": passwords.VALID_SECONDS // 3600}

    def link_to_show(self, request, tournament) -> dict | None:
        """The sign-in link made on this tournament's page for this session, taken out of the
        session: ``{"user", "url", "qr", "hours"}``, or ``None`` (none waiting, or replaced or
        used since, which a message then says)."""
        waiting = request.session.get(LINK_SHOWN_KEY)
        if not isinstance(waiting, dict) or waiting.get("tournament") != tournament.pk:
            return None
        del request.session[LINK_SHOWN_KEY]
        user = get_user_model().objects.filter(pk=waiting.get("user")).first()
        secret = waiting.get("secret")
        if user is None or not isinstance(secret, str) or not sign_in_links.waiting(user, secret):
            messages.warning(
                request,
                _("The sign-in link just made is not shown: a newer one was made since (or it was used already). Make another if it is still needed."),
            )
            return None
        url = sign_in_links.url_of(secret)
        return {"user": user, "url": url, "qr": sign_in_links.qr_svg(url), "hours": sign_in_links.VALID_SECONDS // 3600}

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=self.kwargs["pk"])
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "roles": tournament.roles.select_related("user", "user__sign_in_link").order_by("level", "user__username"),
            "form": kwargs.get("form") or RoleForm(),
            "valid_seconds": sign_in_links.VALID_SECONDS,
        }

    def post(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        if "one_time" in request.POST:
            return self.one_time_password(request, tournament)
        if "sign_in_link" in request.POST:
            self.make_link(request, tournament, whole_number(request.POST.get("sign_in_link")))
            return redirect("tournaments_director:roles", pk=tournament.pk)
        form = RoleForm(request.POST)
        create = None
        if form.is_valid():
            try:
                role = roles.give_role(
                    tournament, form.cleaned_data["username"], form.cleaned_data["level"], request.user,
                    # Only the name the "create" button was offered for: not one edited since.
                    create=request.POST.get("create", "").strip() == form.cleaned_data["username"].strip(),
                )
            except roles.NoSuchUser as missing:
                form.add_error(None, missing.message)
                create = missing.username
            except roles.RoleRefused as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(
                    request,
                    _("%(name)s is %(role)s of this tournament.") % {"name": role.user.get_username(), "role": role.get_level_display()},
                )
                if role.account_created:
                    self.make_link(request, tournament, role.pk)
                return redirect("tournaments_director:roles", pk=pk)
        return self.render_to_response({**self.get_context_data(form=form), "create": create}, status=422)

    def make_link(self, request, tournament, role_id):
        """Make a sign-in link for role ``role_id``'s user and keep it in the session for the
        next GET of this page to show once; a refusal becomes an error message."""
        try:
            user, secret = sign_in_links.make_link(tournament, role_id, request.user)
        except sign_in_links.LinkRefused as refused:
            messages.error(request, refused.message)
        else:
            request.session[LINK_SHOWN_KEY] = {"tournament": tournament.pk, "user": user.pk, "secret": secret}

    def one_time_password(self, request, tournament):
        try:
            user, password = passwords.set_one_time_password(tournament, whole_number(request.POST.get("one_time")), request.user)
        except passwords.PasswordRefused as refused:
            messages.error(request, refused.message)
        else:
            request.session[ONE_TIME_SHOWN_KEY] = {
                "tournament": tournament.pk, "user": user.pk, "password": password, "auth_hash": user.get_session_auth_hash(),
            }
        return redirect("tournaments_director:roles", pk=tournament.pk)


class RemoveRoleView(RoleRequiredMixin, View):
    """Take a role away (POST ``role``); never the tournament's last organiser."""

    required_role = Level.ORGANISER

    def post(self, request, pk):
        tournament = get_object_or_404(Tournament, pk=pk)
        try:
            if roles.remove_role(tournament, whole_number(request.POST.get("role")), request.user):
                messages.success(request, _("The role is taken away."))
            else:
                messages.info(request, _("That role is taken away already."))
        except roles.RoleRefused as refused:
            messages.error(request, refused.message)
        return redirect("tournaments_director:roles", pk=pk)


class ActionLogView(RoleRequiredMixin, ListView):
    """Who did what, when and why in this tournament, newest first; ``?action=``, ``?round=``
    and ``?user=`` narrow it down. 100 entries to a page."""

    template_name = "tournaments/action_log.html"
    paginate_by = 100

    def get_queryset(self):
        entries = ActionLog.objects.filter(tournament_id=self.kwargs["pk"]).select_related("user").order_by("-created", "-pk")
        # Who acted, by the name kept with each entry (also for users gone since, or not restored
        # with an archive); only a name in the log is a filter, anything else shows every entry.
        self.users = sorted(set(entries.exclude(user_name="").values_list("user_name", flat=True)))
        wanted = self.request.GET.get("user", "").strip()
        self.filters = {
            "action": self.request.GET.get("action", "") if self.request.GET.get("action") in ActionLog.Action.values else "",
            "round": whole_number(self.request.GET.get("round")),
            "user": wanted if wanted in self.users else "",
        }
        if self.filters["action"]:
            entries = entries.filter(action=self.filters["action"])
        if self.filters["round"] is not None:
            entries = entries.filter(round_number=self.filters["round"])
        if self.filters["user"]:
            entries = entries.filter(user_name=self.filters["user"])
        return entries

    def get_context_data(self, **kwargs):
        tournament = get_object_or_404(Tournament, pk=self.kwargs["pk"])
        query = {k: v for k, v in self.filters.items() if v not in ("", None)}
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "filters": self.filters,
            "actions": ActionLog.Action.choices,
            "users": self.users,
            "query": urlencode(query),  # kept by the page links
        }
