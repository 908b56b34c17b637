"""The account pages around Django's own: the login (a one-time password leads to choosing a new
one instead of logging in), a one-time sign-in link (:mod:`tournaments.sign_in_links`, leading to
the same choice), choosing that password, and the password reset, which sends a link only through
a real mail server (:mod:`tournaments.passwords`)."""

import functools
import time

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm
from django.db import transaction
from django.shortcuts import redirect, render, resolve_url
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.generic import FormView

from . import passwords, sign_in_links

# Who logs in after choosing a new password is logged in by the model backend (the lock-out
# backend only checks attempts, it logs in nobody).
LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


class LoginForm(AuthenticationForm):
    """Django's login form, keeping the user's password hash as it was before the login
    (``hash_before``, or ``None``): a login may re-hash the password (a hasher's new settings),
    and whether it is a one-time password is told by the hash it was set with."""

    hash_before: str | None = None

    def clean(self):
        username = self.cleaned_data.get("username")  # absent when refused, a null character included
        if username is not None and self.cleaned_data.get("password"):
            users = get_user_model()._default_manager.filter(**{get_user_model().USERNAME_FIELD: username})
            self.hash_before = users.values_list("password", flat=True).first()
        return super().clean()


class LoginView(auth_views.LoginView):
    """Django's login, except for a user who holds a one-time password: it is used up at once
    (:func:`~tournaments.passwords.one_time_used`), he is not logged in, and this session may
    choose his new password (:class:`ChoosePasswordView`), then goes on where the login would have.
    A one-time password that may not be used any more (:func:`~tournaments.passwords.login_refusal`:
    too old, or its organiser could not set it now) ends unused and the form says why."""

    form_class = LoginForm

    def form_valid(self, form):
        user = form.get_user()
        if not passwords.must_choose(user, form.hash_before):
            passwords.forget_replaced(user)
            return super().form_valid(form)
        refused = passwords.login_refusal(user, timezone.now(), form.hash_before)
        passwords.one_time_used(user)
        if refused:
            form.add_error(None, refused)
            return self.form_invalid(form)
        self.request.session.cycle_key()  # a fresh session key for the right to choose
        self.request.session[passwords.PENDING_KEY] = {"user": user.pk, "since": time.time(), "next": self.get_success_url()}
        return redirect("choose_password")


REFUSED_LINK_TEMPLATE = "registration/sign_in_link_refused.html"
# Where the refused page's "Log in" and language switch lead back to: the tournament list, not the
# page's own address, which may be a link's (a key to an account).
REFUSED_LINK_NEXT = "/"


def refused_link(request, message):
    """The page of a sign-in link that does not work (any more): why, and what to do; 410 Gone.
    Its "Log in" link and language switch lead to the tournament list (:data:`REFUSED_LINK_NEXT`)
    rather than back here: the page's address may hold the link's key, which must not travel on
    as ``next`` (into the login page's address, a Referer, a log)."""
    context = {"refused": message, "here": REFUSED_LINK_NEXT}  # the layout's "next" (base.html)
    return render(request, REFUSED_LINK_TEMPLATE, context, status=410)


def no_referrer(view):
    """``view`` with ``Referrer-Policy: no-referrer`` on each of its responses: a page whose
    address holds a key to an account must not send that address as the Referer of its
    stylesheet, script and icon requests or of a link followed from it (Django's default policy,
    ``same-origin``, would send it to this site, into any proxy's access log)."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Referrer-Policy"] = "no-referrer"
        return response

    return wrapped


@method_decorator([no_referrer, never_cache], name="dispatch")
class SignInLinkView(View):
    """``/accounts/sign-in/<key>/``, a one-time sign-in link an organiser made
    (:mod:`tournaments.sign_in_links`). A link that works gives this session the right to choose
    its user's password (:class:`ChoosePasswordView`, where choosing uses the link up and logs him
    in, then goes on to the link's tournament) and redirects there, so the key leaves the address
    bar; nothing is used up yet. A link used already, expired, voided or unknown is answered with a
    page saying so (410). No response of it sends a Referer (:func:`no_referrer`): the key is in
    its address."""

    def get(self, request, key):
        link = sign_in_links.find(key)
        refused = sign_in_links.refusal(link, timezone.now())
        if refused:
            return refused_link(request, refused)
        request.session.cycle_key()  # a fresh session key for the right to choose
        request.session[passwords.PENDING_KEY] = {
            "user": link.user_id,
            "since": time.time(),
            "next": link.tournament.get_absolute_url(),
            "link": link.key_check,
        }
        return redirect("choose_password")


@method_decorator([sensitive_post_parameters(), never_cache], name="dispatch")
class ChoosePasswordView(FormView):
    """After logging in with a one-time password, or opening a sign-in link: choose your own
    (twice, checked by the site's password rules), then you are logged in. Without a one-time
    password used or a link opened in this session in the last minutes, the page says so and
    offers the login. Through a link, the link must still work when the password is chosen (it
    is used up then, :func:`tournaments.sign_in_links.use`): otherwise its refusal page is shown
    and nothing is changed."""

    form_class = SetPasswordForm
    template_name = "registration/choose_password.html"

    def dispatch(self, request, *args, **kwargs):
        note = request.session.get(passwords.PENDING_KEY)
        self.link_check = note.get("link") if isinstance(note, dict) and isinstance(note.get("link"), str) else None
        self.user = passwords.pending_user(request.session, time.time())
        if self.user is None:
            request.session.pop(passwords.PENDING_KEY, None)
            if self.link_check:
                return refused_link(request, _("Choosing the password took too long: open the sign-in link again."))
            return render(request, self.template_name, {"expired": True}, status=410)
        if self.link_check:
            refused = sign_in_links.pending_refusal(self.link_check, self.user, timezone.now())
            if refused:
                request.session.pop(passwords.PENDING_KEY, None)
                return refused_link(request, refused)
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "user": self.user}

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "by_link": bool(self.link_check)}

    def form_valid(self, form):
        if self.link_check:
            try:
                with transaction.atomic():
                    sign_in_links.use(self.link_check, self.user, timezone.now())
                    user = form.save()
            except sign_in_links.LinkRefused as refused:  # used or voided since the page was shown
                self.request.session.pop(passwords.PENDING_KEY, None)
                return refused_link(self.request, refused.message)
        else:
            user = form.save()
            passwords.password_chosen(user)
        next_url = self.request.session.pop(passwords.PENDING_KEY, {}).get("next") or resolve_url(settings.LOGIN_REDIRECT_URL)
        login(self.request, user, backend=LOGIN_BACKEND)
        return redirect(next_url)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, sending the link only when a mail server is configured
    (:func:`~tournaments.passwords.mail_configured`). Without one the page sends nothing, writes
    nothing to any log, and tells the user to ask his tournament's organiser for a one-time
    password."""

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "mail_off": not passwords.mail_configured()}

    def form_valid(self, form):
        if not passwords.mail_configured():
            return self.render_to_response(self.get_context_data(form=form))
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's page behind a reset link; a new password chosen there also ends a one-time
    password still waiting (:func:`~tournaments.passwords.password_chosen`)."""

    def form_valid(self, form):
        response = super().form_valid(form)
        passwords.password_chosen(form.user)
        return response
