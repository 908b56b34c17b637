"""Publishing a tournament from the venue to a public site, live, through an unreliable network.

Both ends are this project. A **public site** (a server: PostgreSQL, Redis, several app servers)
gives its organisers **publishing keys**; a **venue** (the laptop's ``scripts/serve`` on SQLite)
pushes every new data version of a tournament to it in the background, and the site keeps a
**read-only mirror** of it at a stable address, brought to each version atomically.

The push (one HTTP request, the venue's task worker sends it; ``manage.py publish`` sends one):

    POST <site>/publish/push/
    Authorization: Bearer <publishing key>
    X-Tarock-Tournament: <the tournament's uid>
    X-Tarock-Version: <its data version, the archive's own>
    X-Tarock-Signature: sha256=<hex HMAC-SHA256 of the body, keyed with the publishing key>
    X-Tarock-Source: <where it is run from, in the venue's words: "Gasthof Post, Imst">
    X-Tarock-Base: <the version the body changes> (only with a patch)
    X-Tarock-Restored-From: <the version of the backup the tournament was restored from at the
                            venue> (only until the site stored a version of the restored one)
    Content-Type: application/octet-stream
    Accept-Language: <the venue's language: the site's refusals come in it>
    <body: the tournament's archive, archive.backup.export_tournament, or a patch of the version
     X-Tarock-Base names, archive.patch.export_patch>

The venue sends a **patch** when the tournament changed only in its hands since the version the
site last stored (:mod:`archive.patch`: the changed tables, a few kilobytes), the whole archive
otherwise. The site writes a patch into the mirror's copy in place when that copy is exactly the
base (its version and the sheet stamps the patch names); else it answers 409 and the venue sends
the whole archive at once.

Answers are JSON. ``200 {"status": "stored" | "ignored", "version": N, "url": "<mirror address>"}``
(``ignored``: the mirror already holds version N or a newer one); an error is
``{"error": "<what was refused and why, translated>"}`` with 400 (body, signature, headers, the
archive's content), 401 (no such key), 403 (a revoked key, or a tournament this key does not
publish), 409 (a patch of another version than the mirror's copy; or, with ``"code": "newer",
"held": N, "url": …``, a mirror newer than the backup the venue restored: it holds hands the venue
lacks, and the venue's director decides), 413 (too large, before anything is unpacked) or 429 (too
many pushes for this key).

Modules: :mod:`.models` (keys, mirrors and their logs; the venue's targets and attempts),
:mod:`.keys` (making and checking keys), :mod:`.site` (taking a push: checks, the mirror's swap),
:mod:`.venue` (the background push with back-off, its status), :mod:`.views_site` and
:mod:`.views_venue` (their pages) and the commands
``publishing_key`` and ``publish``. It sits above :mod:`archive`, whose export, checks and
restore it uses.
"""
