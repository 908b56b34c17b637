"""The director's form for where a tournament is published: the public site's address, the
publishing key (typed once, stored, never shown again) and whether publishing is on."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from django import forms
from django.utils.translation import gettext_lazy as _

from publishing.models import PublishTarget


class PublishTargetForm(forms.Form):
    """``url``: the public site's address, ``http(s)://host[:port][/path]`` (no query, no user
    name), kept without its trailing slash; ``key``: the publishing key the site's organiser made
    (required the first time, left empty to keep the stored one; surrounding spaces dropped);
    ``enabled``. ``stored_key``: the key stored now ("" for a new target)."""

    url = forms.URLField(
        label=_("Public site"), max_length=300, assume_scheme="https",
        help_text=_("The address of the public site, e.g. https://tarock.example.org"),
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "url"}),
    )
    key = forms.CharField(
        label=_("Publishing key"), max_length=200, required=False, strip=True,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )
    enabled = forms.BooleanField(label=_("Publish"), required=False, initial=True)

    def __init__(self, *args, stored_key: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.stored_key = stored_key
        if stored_key:
            self.fields["key"].help_text = _("A key is stored. Leave this empty to keep it, or enter a new one.")
        else:
            self.fields["key"].help_text = _("The key the public site's organiser made for you (it is shown there once).")

    @classmethod
    def for_target(cls, target: PublishTarget | None, data=None) -> PublishTargetForm:
        """The form for ``target`` (``None``: none yet), with ``data`` when posted."""
        initial = {"url": target.url, "enabled": target.enabled} if target else {"enabled": True}
        return cls(data, initial=initial, stored_key=target.key if target else "")

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise forms.ValidationError(_("Enter the address as http://… or https://…"))
        if parts.username or parts.password or parts.query or parts.fragment:
            raise forms.ValidationError(_("Enter only the site's address, without a user name, “?” or “#”."))
        return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))

    def clean_key(self) -> str:
        key = self.cleaned_data["key"]
        if not key and not self.stored_key:
            raise forms.ValidationError(_("Enter the publishing key."))
        if key and (any(c.isspace() for c in key) or not key.isprintable() or not key.isascii()):
            raise forms.ValidationError(_("A publishing key has no spaces and only plain letters, digits and signs."))
        return key
