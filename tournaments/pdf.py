"""Render print templates to A4 PDFs with WeasyPrint, served as downloads."""

import gc

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.text import slugify


def render_pdf(template: str, context: dict) -> bytes:
    """The PDF of ``template`` rendered with ``context``; relative URLs (the print stylesheet)
    resolve on the file system, never over HTTP."""
    return html_to_pdf(render_to_string(template, context))


def html_to_pdf(html: str) -> bytes:
    """WeasyPrint's PDF of ``html`` with Python's cyclic garbage collector paused meanwhile.

    WeasyPrint builds hundreds of thousands of objects for a large document and the collector
    scans them again and again while they pile up (measured with bench/print_bench.py, 1,000
    players: standings about 7.5 s -> 4.8 s). Reference counting still frees what it can; the
    cycles go at the next collection after the PDF is written.
    """
    from weasyprint import HTML  # imported lazily: loading Pango costs start-up time

    enabled = gc.isenabled()
    gc.disable()
    try:
        return HTML(string=html, base_url=settings.WEASYPRINT_BASEURL).write_pdf()
    finally:
        if enabled:
            gc.enable()


def html_parts_to_pdf(parts, progress=None) -> bytes:
    """One PDF of several HTML documents, their pages in order: ``parts`` yields ``(html, units)``
    and ``progress(done, total)`` is called after each part with the units done so far (``total``
    is the sum, known only as the parts come: pass it through the caller's own ``progress``).

    A long print (the table results of 250 tables) is laid out in parts so the background worker
    can say how far it got; WeasyPrint lays each part out on its own and the pages are joined
    (``Document.copy``). A part therefore starts on a new page, and page numbers count within it.
    """
    from weasyprint import HTML

    enabled = gc.isenabled()
    gc.disable()  # as html_to_pdf
    try:
        documents, done = [], 0
        for html, units in parts:
            documents.append(HTML(string=html, base_url=settings.WEASYPRINT_BASEURL).render())
            done += units
            if progress is not None:
                progress(done)
        if not documents:
            raise ValueError("no parts to print")
        pages = [page for document in documents for page in document.pages]
        return documents[0].copy(pages).write_pdf()
    finally:
        if enabled:
            gc.enable()


def pdf_response(content: bytes, tournament, suffix: str) -> HttpResponse:
    """A download named after the tournament, e.g. ``cup-schwaz-2026-12-05-round-1-seating.pdf``."""
    response = HttpResponse(content, content_type="application/pdf")
    name = f"{slugify(tournament.name) or 'tournament'}-{tournament.date:%Y-%m-%d}-{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
