"""Render print templates to A4 PDFs with WeasyPrint, served as downloads."""

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.text import slugify


def render_pdf(template: str, context: dict) -> bytes:
    """The PDF of ``template`` rendered with ``context``; relative URLs (the print stylesheet)
    resolve on the file system, never over HTTP."""
    from weasyprint import HTML  # imported lazily: loading Pango costs start-up time

    return HTML(string=render_to_string(template, context), base_url=settings.WEASYPRINT_BASEURL).write_pdf()


def pdf_response(content: bytes, tournament, suffix: str) -> HttpResponse:
    """A download named after the tournament, e.g. ``cup-schwaz-2026-12-05-round-1-seating.pdf``."""
    response = HttpResponse(content, content_type="application/pdf")
    name = f"{slugify(tournament.name) or 'tournament'}-{tournament.date:%Y-%m-%d}-{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
