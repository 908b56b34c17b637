"""What every endpoint of the public API shares: read-only for everybody, JSON only, answered by
version.

- **Nobody is anyone**: no authentication (a session cookie never matters, no CSRF), every
  visitor may read; only ``GET``, ``HEAD`` and a CORS preflight's ``OPTIONS`` (anything else is
  ``405``). Every answer allows any origin (``Access-Control-Allow-Origin: *``): the answers are
  public and carry no credentials, so a club's page may fetch them from its own site.
- **Conditional GET** as on the public pages (:mod:`tournaments.public_cache`): the ``ETag`` is
  made of the version of what the answer shows (a tournament's data version stamp, a cup's
  version, a list's version), the language and the release of the code; ``If-None-Match`` with it
  gets ``304``; ``Cache-Control: no-cache`` (ask again each time, 304 while the version holds).
- **Rendered once per version**: the JSON is kept in Django's cache under the version, language,
  path and the canonical query parameters the endpoint declares (:meth:`PublicApiView.params`,
  so ``?x=1`` … ``?x=300`` are one answer); a parameter naming nothing is a 404, never kept.
- **Rate-limited as the pages**: a render for the cache counts against ``RATE_LIMIT_PAGES`` for
  the visitor's address (:mod:`tournaments.ratelimits`, group ``api-render``); 304s and cached
  answers never count. Over it: ``429`` with ``Retry-After``.
- **Language**: the one Django chose (``Accept-Language``, the language cookie), or ``?lang=``
  (one of ``LANGUAGES``).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, Sum
from django.http import HttpResponse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from rest_framework.exceptions import NotFound, Throttled
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from tournaments import ratelimits
from tournaments.public_cache import canonical_query


def chosen_language(value) -> str | None:
    """``?lang=`` as one of ``settings.LANGUAGES`` (``"de"``), else ``None``."""
    return value if isinstance(value, str) and value in dict(settings.LANGUAGES) else None


def api_tag(found: tuple[object, str], language: str) -> str:
    """The ``ETag`` of an answer: what it is of and its version (``found``), the language and the
    release of the code (the cache's key prefix), weak (``W/"api.7.12.1795….de.3f2a"``)."""
    return f'W/"api.{found[0]}.{found[1]}.{language}.{settings.CACHES["default"]["KEY_PREFIX"]}"'


def list_version(model, counter: str) -> tuple[str, str]:
    """``(name, stamp)`` of a list of every row of ``model`` (tournaments, cups): how many, the sum
    of their version ``counter``, the newest id and creation time, hashed (one query). Every
    change a row's page shows bumps its counter, a new row raises the newest creation time, a
    deleted one lowers the count (a mirror's new version is both)."""
    found = model.objects.aggregate(n=Count("pk"), v=Sum(counter), m=Max("pk"), c=Max("created"))
    text = f"{found['n']}|{found['v']}|{found['m']}|{found['c'].timestamp() if found['c'] else ''}"
    return model._meta.model_name, hashlib.sha256(text.encode()).hexdigest()[:20]


def allow_any_origin(response: HttpResponse) -> HttpResponse:
    """The CORS headers of every API answer: readable from any site, ETag readable too."""
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = "ETag"
    return response


class PublicApiView(APIView):
    """An endpoint of the public API (see the module's docstring). A subclass gives
    :meth:`version_for` (``(what, stamp)`` for the URL's arguments, ``None`` for nothing there:
    404), :meth:`params` (the canonical query parameters) and :meth:`answer` (the data, as
    :mod:`scoring.api.answers` builds it; may raise ``Http404``/``NotFound``)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]
    throttle_classes: list = []
    http_method_names = ["get", "head", "options"]

    def version_for(self, **kwargs) -> tuple[object, str] | None:
        raise NotImplementedError

    def params(self) -> dict[str, int | str]:
        """The query parameters that choose what the answer shows, in canonical form, read from
        ``self.request.query_params`` without a query (``{}`` by default)."""
        return {}

    def answer(self, params: dict, **kwargs) -> dict:
        raise NotImplementedError

    def dispatch(self, request, *args, **kwargs):
        language = chosen_language(request.GET.get("lang"))
        if language is None:
            return super().dispatch(request, *args, **kwargs)
        with translation.override(language):
            response = super().dispatch(request, *args, **kwargs)
            if hasattr(response, "render") and not getattr(response, "is_rendered", True):
                response.render()  # an error's text in the language asked for
        response["Content-Language"] = language
        return response

    def finalize_response(self, request, response, *args, **kwargs):
        return allow_any_origin(super().finalize_response(request, response, *args, **kwargs))

    def options(self, request, *args, **kwargs):
        """A CORS preflight (a page that sends ``If-None-Match`` itself): any origin may ``GET``."""
        response = HttpResponse(status=200)
        response["Access-Control-Allow-Methods"] = "GET, HEAD"
        response["Access-Control-Allow-Headers"] = "If-None-Match"
        response["Access-Control-Max-Age"] = "86400"
        return response

    def get(self, request, *args, **kwargs):
        found = self.version_for(**kwargs)
        if found is None:
            raise NotFound()
        language = translation.get_language()
        tag = api_tag(found, language)
        not_modified = get_conditional_response(request, etag=tag)
        if not_modified is not None:
            return self._finish(not_modified, tag)
        params = self.params()
        query = canonical_query(params)
        path = hashlib.sha256(f"{request.path}?{query}".encode()).hexdigest()[:24]
        key = f"api:{found[0]}:{found[1]}:{language}:{path}"
        content = cache.get(key)
        if content is None:
            wait = ratelimits.over_limit(request, "api-render", ratelimits.PAGES)
            if wait is not None:
                raise Throttled(wait)
            content = JSONRenderer().render(self.answer(params, **kwargs))
            cache.set(key, content)
        return self._finish(HttpResponse(content, content_type="application/json"), tag)

    @staticmethod
    def _finish(response: HttpResponse, tag: str) -> HttpResponse:
        response["ETag"] = tag
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response
