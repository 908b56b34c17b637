"""The OpenAPI schema of the public API (drf-spectacular), at ``/api/v1/schema/``. No Swagger UI:
it loads its scripts from a CDN, which the site's Content-Security-Policy forbids."""

from django.core.cache import cache
from django.utils.translation import get_language
from drf_spectacular.views import SpectacularAPIView
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from tournaments import ratelimits

from .base import allow_any_origin


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema of the endpoints of :mod:`scoring.api.views` (YAML; ``?format=json``
    for JSON), generated once per release and language and kept in the cache (a generation counts
    against the visitor's rate); for everybody, without authentication."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    urlconf = ["scoring.api.urls"]

    def _get_schema_response(self, request):
        key = f"api:schema:{get_language()}"
        data = cache.get(key)
        if data is None:
            wait = ratelimits.over_limit(request, "api-render", ratelimits.PAGES)
            if wait is not None:
                raise Throttled(wait)
            data = super()._get_schema_response(request).data
            cache.set(key, data)
        return Response(data, headers={"Content-Disposition": f'inline; filename="{self._get_filename(request, None)}"'})

    def finalize_response(self, request, response, *args, **kwargs):
        return allow_any_origin(super().finalize_response(request, response, *args, **kwargs))
