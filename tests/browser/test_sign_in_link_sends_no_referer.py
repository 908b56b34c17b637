"""A sign-in link that does not work opened in a browser: the page saying so loads its stylesheet
and scripts without sending its address (the link's key) as Referer, and its "Log in" leads to
the login page without the key either."""

from urllib.parse import urlsplit

KEY = "Zq8v-Not_a_real_key_0123456789abcdefghijklm"


def test_the_refused_page_sends_the_key_nowhere(browser, live_server):
    page = browser.new_page(locale="en-GB")
    sent = []
    page.on("request", lambda request: sent.append((request.url, request.all_headers())))
    response = page.goto(f"{live_server.url}/accounts/sign-in/{KEY}/")
    assert response.status == 410
    page.wait_for_load_state("networkidle")
    assert page.locator("h1:has-text('This sign-in link does not work')").count() == 1
    loaded = [(url, headers) for url, headers in sent[1:] if "/static/" in url]
    assert any(url.endswith(".css") for url, _ in loaded) and any(url.endswith(".js") for url, _ in loaded)
    assert all("referer" not in headers for _url, headers in loaded), loaded
    sent.clear()
    page.click("header >> text=Log in")
    page.wait_for_selector("input[name=username]")
    assert urlsplit(page.url).path == "/accounts/login/" and KEY not in page.url
    assert all(KEY not in str(headers) for _url, headers in sent), sent
