"""Public pages answered before the middleware (config.conditional): the 304 and the cached page
carry exactly the status, headers and body Django's whole stack gives them, for every public
cached page; anything the middleware would act on (a session, a message waiting, an ill-formed
CSRF cookie, a refused host, plain HTTP to be redirected) and every render go to Django; one query
a request.

Both paths are called as gunicorn calls them, on copies of the same request: ``config.wsgi``'s
application, which answers early when it can, and Django's own WSGI handler."""

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.test import RequestFactory, override_settings
from django.urls import reverse

from config.conditional import EarlyPublicPages, early_answer
from scoring.cups.models import Cup
from scoring.services import save_hand
from tournaments.public_cache import recent_pages

HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}
CSRF_SECRET = "a" * 32  # a well-formed CSRF cookie (32 letters and digits)


@pytest.fixture(autouse=True)
def no_recent_pages():
    recent_pages.clear()
    yield
    recent_pages.clear()


@pytest.fixture
def gunicorn_calls():
    """Call a WSGI app as gunicorn does, but keep the test's database connection (as Django's test
    client does): ``call(app, path, method="GET", **headers) -> (status, headers, body)``."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)

    def call(app, path, method="GET", query="", **headers):
        environ = RequestFactory().generic(method, path, QUERY_STRING=query, **headers).environ
        answer = {}

        def start_response(status, response_headers, exc_info=None):
            answer["status"], answer["headers"] = status, response_headers

        body = app(environ, start_response)
        try:
            content = b"".join(body)
        finally:
            if hasattr(body, "close"):
                body.close()
        return answer["status"], answer["headers"], content

    yield call
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def environ_of(path, method="GET", query="", **headers):
    return RequestFactory().generic(method, path, QUERY_STRING=query, **headers).environ


def public_pages(table) -> list[tuple[str, str]]:
    """``(path, query)`` of every public page served from the page cache."""
    t = table.round.tournament
    cup = Cup.objects.create(name="Testcup", ruleset=t.ruleset, method="tirol")
    registration = table.seats.first().registration_id
    return [
        (reverse("tournaments:detail", args=[t.pk]), ""),
        (reverse("tournaments:round", args=[t.pk, 1]), ""),
        (reverse("scoring:standings", args=[t.pk]), ""),
        (reverse("scoring:standings", args=[t.pk]), "after=1&utm=x"),
        (reverse("scoring:sheet", args=[table.pk]), ""),
        (reverse("scoring:rules", args=[t.pk]), ""),
        (reverse("live:screen", args=[t.pk]), "seconds=20"),
        (reverse("live:screen_slide", args=[t.pk, 1]), ""),
        (reverse("live:screen_slide", args=[t.pk, 0]), ""),
        (reverse("live:player_names", args=[t.pk]), ""),
        (reverse("live:player", args=[t.pk, registration]), ""),
        (reverse("live:statistics", args=[t.pk]), ""),
        (reverse("live:chart_contracts", args=[t.pk]), ""),
        (reverse("live:table_chart", args=[table.pk]), ""),
        (reverse("prizes:list", args=[t.pk]), ""),
        (reverse("cups:table", args=[cup.pk]), ""),
    ]


@pytest.mark.django_db
def test_every_public_page_answers_early_exactly_as_the_whole_stack(four_table, gunicorn_calls):
    save_hand(four_table, HAND)
    django_app = WSGIHandler()
    app = EarlyPublicPages(django_app)
    for path, query in public_pages(four_table):
        for headers in ({}, {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.8"}, {"HTTP_COOKIE": "django_language=sl"}, {"HTTP_HX_REQUEST": "true"},
                        {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}):
            rendered = gunicorn_calls(django_app, path, query=query, **headers)  # a miss: rendered and kept
            assert rendered[0] == "200 OK", (path, headers)
            tag = dict(rendered[1])["ETag"]
            for method, extra, status in (("GET", {}, "200 OK"), ("HEAD", {}, "200 OK"), ("GET", {"HTTP_IF_NONE_MATCH": tag}, "304 Not Modified")):
                early = early_answer(environ_of(path, method, query, **headers, **extra))
                assert early is not None, (path, headers, extra)
                whole = gunicorn_calls(django_app, path, method, query, **headers, **extra)
                assert early[0] == whole[0] == status, (path, headers, extra)
                assert early[1] == whole[1], (path, headers, extra)  # the same headers, in the same order
                assert early[2] == whole[2], (path, headers, extra)
                assert gunicorn_calls(app, path, method, query, **headers, **extra) == whole


@pytest.mark.django_db
def test_over_https_the_early_answer_carries_hsts_as_the_whole_stack(four_table, gunicorn_calls):
    path = reverse("scoring:standings", args=[four_table.round.tournament_id])
    https = {"HTTP_X_FORWARDED_PROTO": "https"}
    with override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"), SECURE_SSL_REDIRECT=True,
                           SECURE_HSTS_SECONDS=3600):
        django_app = WSGIHandler()  # its middleware reads these settings when it is made
        tag = dict(gunicorn_calls(django_app, path, **https)[1])["ETag"]
        for extra in ({}, {"HTTP_IF_NONE_MATCH": tag}):
            early = early_answer(environ_of(path, **https, **extra))
            assert early is not None
            assert early == gunicorn_calls(django_app, path, **https, **extra)
            assert ("Strict-Transport-Security", "max-age=3600") in early[1]
        # plain HTTP is redirected by the whole stack, never answered early
        assert early_answer(environ_of(path)) is None
        assert gunicorn_calls(django_app, path)[0].startswith("301")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "headers",
    [
        {"HTTP_COOKIE": "sessionid=abc"},  # maybe logged in: the session middleware decides
        {"HTTP_COOKIE": "messages=abc"},  # a message waiting
        {"HTTP_COOKIE": "csrftoken=short"},  # ill-formed: the CSRF middleware sets a new one
        {"HTTP_HOST": "evil.example.org"},  # not an allowed host: 400 from the whole stack
    ],
)
def test_what_the_middleware_acts_on_goes_to_django(four_table, gunicorn_calls, headers):
    path = reverse("scoring:standings", args=[four_table.round.tournament_id])
    django_app = WSGIHandler()
    tag = dict(gunicorn_calls(django_app, path)[1])["ETag"]
    assert early_answer(environ_of(path)) is not None  # cached, and answered early without those
    assert early_answer(environ_of(path, **headers)) is None
    assert early_answer(environ_of(path, HTTP_IF_NONE_MATCH=tag, **headers)) is None
    assert early_answer(environ_of(path, "POST")) is None


@pytest.mark.django_db
def test_a_well_formed_csrf_cookie_and_other_cookies_are_answered_early(four_table, gunicorn_calls):
    path = reverse("scoring:standings", args=[four_table.round.tournament_id])
    django_app = WSGIHandler()
    cookies = {"HTTP_COOKIE": f"csrftoken={CSRF_SECRET}; django_language=en; _ga=1"}
    gunicorn_calls(django_app, path, **cookies)
    early = early_answer(environ_of(path, **cookies))
    assert early is not None and early == gunicorn_calls(django_app, path, **cookies)
    assert ("Content-Language", "en") in early[1]


@pytest.mark.django_db
def test_a_director_gets_his_own_page_through_the_wsgi_application(director_client, four_table):
    from config.wsgi import application

    assert isinstance(application, EarlyPublicPages)
    url = reverse("scoring:sheet", args=[four_table.pk])
    mine = director_client.get(url)  # his own page: no ETag, his entry form
    assert "ETag" not in mine and 'id="hand-form"' in mine.content.decode()
    session = director_client.cookies["sessionid"].value
    assert early_answer(environ_of(url, HTTP_COOKIE=f"sessionid={session}")) is None


@pytest.mark.django_db
def test_a_miss_and_a_new_version_go_to_django(four_table, gunicorn_calls):
    path = reverse("scoring:standings", args=[four_table.round.tournament_id])
    assert early_answer(environ_of(path)) is None  # nothing cached yet: Django renders it
    django_app = WSGIHandler()
    tag = dict(gunicorn_calls(django_app, path)[1])["ETag"]
    assert early_answer(environ_of(path, HTTP_IF_NONE_MATCH=tag))[0] == "304 Not Modified"
    save_hand(four_table, HAND)
    # the viewer's ETag is of the old version; the new version's page is not rendered yet
    assert early_answer(environ_of(path, HTTP_IF_NONE_MATCH=tag)) is None
    assert early_answer(environ_of(path)) is None
    changed = gunicorn_calls(django_app, path, HTTP_IF_NONE_MATCH=tag)
    assert changed[0] == "200 OK" and dict(changed[1])["ETag"] != tag
    assert early_answer(environ_of(path))[2] == changed[2]  # and then it is answered early


@pytest.mark.django_db
def test_an_early_answer_costs_one_query_and_at_most_one_cache_read(four_table, gunicorn_calls, django_assert_num_queries, monkeypatch):
    from django.core.cache import cache

    t = four_table.round.tournament
    django_app = WSGIHandler()
    reads = []
    read = cache.get
    monkeypatch.setattr(cache, "get", lambda *a, **k: reads.append(a[0]) or read(*a, **k))
    for path in (reverse("live:screen_slide", args=[t.pk, 1]), reverse("live:player", args=[t.pk, four_table.seats.first().registration_id])):
        tag = dict(gunicorn_calls(django_app, path)[1])["ETag"]
        reads.clear()
        with django_assert_num_queries(1):  # the version
            assert early_answer(environ_of(path, HTTP_IF_NONE_MATCH=tag))[0] == "304 Not Modified"
        assert reads == []
        with django_assert_num_queries(1):  # the version; the page from the cache
            assert early_answer(environ_of(path))[0] == "200 OK"
        assert len(reads) == 1
        with django_assert_num_queries(1):  # the version; the page this process took a moment ago
            assert early_answer(environ_of(path))[0] == "200 OK"
        assert len(reads) == 1


@pytest.mark.django_db
def test_with_the_cache_down_the_304_is_answered_early_and_the_page_rendered_by_django(four_table, gunicorn_calls):
    from bench.plain_http import free_port
    from tests.config.test_cache_failover import caches_at

    path = reverse("live:screen_slide", args=[four_table.round.tournament_id, 1])
    django_app = WSGIHandler()
    with override_settings(CACHES=caches_at(free_port())):
        rendered = gunicorn_calls(django_app, path)
        assert rendered[0] == "200 OK"
        assert early_answer(environ_of(path)) is None  # nothing in a dead cache: Django renders
        tag = dict(rendered[1])["ETag"]
        assert early_answer(environ_of(path, HTTP_IF_NONE_MATCH=tag)) == gunicorn_calls(django_app, path, HTTP_IF_NONE_MATCH=tag)


@pytest.mark.django_db
def test_with_middleware_it_does_not_know_nothing_is_answered_early(four_table, gunicorn_calls, settings):
    path = reverse("scoring:standings", args=[four_table.round.tournament_id])
    gunicorn_calls(WSGIHandler(), path)
    assert early_answer(environ_of(path)) is not None
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "django.middleware.gzip.GZipMiddleware"]
    assert early_answer(environ_of(path)) is None


@pytest.mark.django_db
def test_pages_that_are_not_cached_public_pages_go_to_django(four_table):
    t = four_table.round.tournament
    for path in ("/", reverse("scoring:private_sheet", args=[four_table.token]), reverse("login"), "/no/such/page/",
                 reverse("cups:export", args=[1, "xlsx"])):
        assert early_answer(environ_of(path)) is None, path
    assert early_answer(environ_of(reverse("scoring:standings", args=[t.pk + 1000]))) is None  # no such tournament
