"""Render print templates to A4 PDFs with WeasyPrint, served as downloads.

A long print is laid out on several processes at once (:func:`long_table_pdf`,
:func:`html_parts_to_pdf`): the HTML is rendered here, where the templates and the database are,
cut into chunks of whole pages, and each chunk is laid out by a child process that needs nothing
but WeasyPrint and the stylesheet's directory. The chunks' pages are joined with pypdf into the
pages a single document of the same HTML has, text for text.
"""

from __future__ import annotations

import gc
import html as htmllib
import itertools
import os
import re
import resource
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from io import BytesIO

# Django is imported inside the functions that need it: the child processes import this module
# to find their task and have no settings.

CHUNK_ROWS = 500  # table rows a chunk of a long table holds at most (about 13 pages of standings)
PART_CHUNK_PAGES = 100  # units (score sheets: tables, a page each) a chunk of a print in parts holds at most
MAX_REPLANS = 2  # page breaks mispredicted this often: the rest is laid out as one chunk


def render_pdf(template: str, context: dict) -> bytes:
    """The PDF of ``template`` rendered with ``context``; relative URLs (the print stylesheet)
    resolve on the file system, never over HTTP."""
    from django.template.loader import render_to_string

    return html_to_pdf(render_to_string(template, context))


def _base_url() -> str:
    from django.conf import settings

    return settings.WEASYPRINT_BASEURL


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
        return HTML(string=html, base_url=_base_url()).write_pdf()
    finally:
        if enabled:
            gc.enable()


# --------------------------------------------------------------------------------------------------
# Child processes
# --------------------------------------------------------------------------------------------------


def processes() -> int:
    """How many processes lay out a long print: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB (Linux counts ``ru_maxrss`` in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@dataclass
class PrintStats:
    """What the last long print here cost: wall-clock seconds are the caller's to take; ``chunks``
    laid out, ``processes`` used, ``replans`` (page breaks mispredicted), and the peak resident
    memory of the busiest child and of this process, in MiB."""

    chunks: int = 0
    processes: int = 0
    replans: int = 0
    child_peak_mib: float = 0.0
    child_cpu_s: float = 0.0
    parent_peak_mib: float = 0.0
    pages: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # wall clock by step, here
    notes: list[str] = field(default_factory=list)

    def lap(self, step: str, since: float) -> float:
        now = time.perf_counter()
        self.seconds[step] = round(self.seconds.get(step, 0.0) + now - since, 3)
        return now


last_print = PrintStats()  # read by bench/print_bench.py


class _Pool:
    """A process pool for one print: ``forkserver`` children (a child never inherits the parent's
    database connections or threads), forked from a server that has WeasyPrint loaded, a child for
    each chunk: it exits when its chunk is done, so its memory goes back at once, without a
    collection of WeasyPrint's cycles (half a second a chunk). Leaving the block on an error, or
    with abandoned chunks still running, ends the children at once rather than letting them finish
    chunks nobody will read; a child that dies (killed, out of memory) makes every waiting
    ``result()`` raise ``BrokenProcessPool`` instead of hanging."""

    def __init__(self, workers: int):
        self.executor = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), max_tasks_per_child=1)
        self.abandoned: list[Future] = []  # chunks nobody will read (a page break was mispredicted)

    def __enter__(self) -> _Pool:
        return self

    def submit(self, fn, *args) -> Future:
        """The executor's ``submit``; raises ``BrokenProcessPool`` when a child died, also when
        no new child can be started: the executor's own ``submit`` starts the next child and
        then fails with ``OSError`` (``EBADF`` from the fork server, seen after a child died on a
        loaded machine; no memory or processes left)."""
        try:
            return self.executor.submit(fn, *args)
        except OSError as error:
            raise BrokenProcessPool(f"the print's process pool broke: {error}") from error

    def abandon(self, future: Future) -> None:
        if not future.cancel():
            self.abandoned.append(future)

    def __exit__(self, kind, error, tb):
        if kind is None and all(f.done() for f in self.abandoned):
            self.executor.shutdown(wait=True)
            return
        processes = list((self.executor._processes or {}).values())  # no public way before Python 3.14
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(5)


def _context():
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    # Before its first child the server imports these once, each child is a fork of it: the main
    # module (which a child imports otherwise) and WeasyPrint with Pango and the fonts.
    context.set_forkserver_preload(["__main__", "weasyprint", __name__])
    return context


def _walk(box):
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _walk(child)


def _body_rows_per_page(document) -> list[int]:
    """For each page of a laid-out ``document``, how many rows of its tables' bodies start there
    (a row split over two pages counts on the first)."""
    from weasyprint.formatting_structure import boxes

    counts, last = [], None
    for page in document.pages:
        n = 0
        for box in _walk(page._page_box):
            if isinstance(box, boxes.TableRowGroupBox) and box.element_tag == "tbody":
                for row in box.children:
                    if row.element is not last:
                        n += 1
                    last = row.element
        counts.append(n)
    return counts


def _lay_out(documents_html: list[str], base_url: str, rows: bool) -> tuple[bytes, list[int], float, float]:
    """(child) The PDF of the documents' pages in order, the body rows starting on each page
    (``rows``, else ``[]``), the child's CPU seconds and its peak memory in MiB."""
    from weasyprint import HTML

    gc.disable()  # as html_to_pdf; the child ends with its chunk, never collecting
    documents = [HTML(string=h, base_url=base_url).render() for h in documents_html]
    counts = [n for document in documents for n in _body_rows_per_page(document)] if rows else []
    pages = [page for document in documents for page in document.pages]
    pdf = documents[0].copy(pages).write_pdf()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return pdf, counts, usage.ru_utime + usage.ru_stime, _peak_rss_mib()


# --------------------------------------------------------------------------------------------------
# A print in parts (score sheets, table results)
# --------------------------------------------------------------------------------------------------


def html_parts_to_pdf(
    parts: Iterable[tuple[str, int]], progress: Callable[[int], None] | None = None, total: int | None = None
) -> bytes:
    """One PDF of several HTML documents, their pages in order: ``parts`` yields ``(html, units)``
    and ``progress(done)`` is called as parts are laid out, with the units done so far; ``total``,
    the units of all parts when known, lets the chunks come out even.

    A long print (the score sheets of 250 tables) comes in parts so the background worker can say
    how far it got. Each part starts on a new page and its page numbers count within it, as if its
    pages were joined (WeasyPrint's ``Document.copy``) to the others'. A print of more than
    :data:`PART_CHUNK_PAGES` units is laid out on :func:`processes` child processes in chunks of
    whole parts (as many as processes, or a multiple: about that many units or fewer a chunk), each
    sent off as soon as its parts are rendered, and the chunks' PDFs joined with pypdf; a smaller
    one here. Raises ``ValueError`` for no parts, ``BrokenProcessPool`` when a child dies.
    """
    parts = iter(parts)
    first: list[tuple[str, int]] = []
    for html, n in parts:
        first.append((html, n))
        if sum(u for _h, u in first) > PART_CHUNK_PAGES and len(first) > 1:
            break
    else:
        return _parts_here(first, progress)
    global last_print
    last_print = stats = PrintStats(processes=processes())
    lap = time.perf_counter()
    every = stats.processes * PART_CHUNK_PAGES
    size = total / (stats.processes * -(-total // every)) if total else PART_CHUNK_PAGES
    base_url, order, results, done = _base_url(), [], {}, 0
    pending: dict[Future, tuple[int, int]] = {}

    def collect(block: bool) -> None:
        nonlocal done
        finished, _ = wait(pending, timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for future in finished:
            index, units = pending.pop(future)
            pdf, _counts, cpu, peak = future.result()
            results[index] = pdf
            stats.child_peak_mib = max(stats.child_peak_mib, peak)
            stats.child_cpu_s += cpu
            done += units
            if progress is not None:
                progress(done)

    with _Pool(stats.processes) as pool:

        def send(chunk: list[tuple[str, int]]) -> None:
            index = len(order)
            order.append(index)
            pending[pool.submit(_lay_out, [h for h, _n in chunk], base_url, False)] = index, sum(n for _h, n in chunk)
            collect(block=False)

        chunk, sent = [], 0
        for html, n in itertools.chain(first, parts):  # the parent renders the next parts meanwhile
            if chunk and sent + sum(u for _h, u in chunk) >= size * (len(order) + 1) - 1e-9:
                sent += sum(u for _h, u in chunk)
                send(chunk)
                chunk = []
            chunk.append((html, n))
        send(chunk)
        stats.chunks = len(order)
        while pending:
            collect(block=True)
    lap = stats.lap("chunks", lap)
    content = _join([results[i] for i in order])
    stats.lap("join", lap)
    stats.parent_peak_mib = _peak_rss_mib()
    return content


def _parts_here(parts: list[tuple[str, int]], progress) -> bytes:
    from weasyprint import HTML

    enabled = gc.isenabled()
    gc.disable()  # as html_to_pdf
    try:
        documents, done = [], 0
        for html, units in parts:
            documents.append(HTML(string=html, base_url=_base_url()).render())
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


def _join(pdfs: list[bytes], pages: list[range] | None = None, frame: bytes | None = None) -> bytes:
    """The PDFs' pages in order (``pages``: which of each), each page merged with the page of
    ``frame`` of the same number when given (drawn over it, as WeasyPrint draws the page's margin
    boxes after its content)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for k, pdf in enumerate(pdfs):
        reader = PdfReader(BytesIO(pdf))
        for i in pages[k] if pages is not None else range(len(reader.pages)):
            writer.add_page(reader.pages[i])
    if frame is not None:
        frames = PdfReader(BytesIO(frame)).pages
        if len(frames) != len(writer.pages):
            raise _Mismatch(f"a frame of {len(frames)} pages for {len(writer.pages)}")
        for page, over in zip(writer.pages, frames):
            page.merge_page(over)
            page.compress_content_streams()  # pypdf writes the merged content uncompressed
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


# --------------------------------------------------------------------------------------------------
# A long table (the standings)
# --------------------------------------------------------------------------------------------------

_ROW = re.compile(r"<tr[\s>]")
_CELL = re.compile(r"<t([dh])\b[^>]*>(.*?)</t\1>", re.S)
_TAG = re.compile(r"<[^>]+>")
_SUPPRESS_MARGINS = "<style>@page { %s }</style>" % " ".join(
    f"@{name} {{ content: none }}"
    for name in (
        "top-left-corner", "top-left", "top-center", "top-right", "top-right-corner", "right-top", "right-middle",
        "right-bottom", "bottom-right-corner", "bottom-right", "bottom-center", "bottom-left", "bottom-left-corner",
        "left-bottom", "left-middle", "left-top",
    )
)
_LEAD_IN = "<style>tbody > tr:nth-child(2) { break-before: page }</style>"


@dataclass
class _Table:
    """A document of one long table cut where its rows are: ``head`` up to ``<tbody>``, the
    ``rows`` and ``tail`` from ``</tbody>``."""

    head: str
    rows: list[str]
    tail: str

    @classmethod
    def parse(cls, html: str) -> _Table | None:
        start, end = html.find("<tbody>"), html.rfind("</tbody>")
        if start < 0 or end < start or html.count("<tbody") != 1 or "<table" in html[start:end]:
            return None
        body = html[start + len("<tbody>") : end]
        cuts = [m.start() for m in _ROW.finditer(body)]
        if not cuts or body[: cuts[0]].strip():
            return None
        rows = [body[a:b] for a, b in zip(cuts, [*cuts[1:], len(body)])]
        return cls(html[: start + len("<tbody>")], rows, html[end:])

    def chunk(self, start: int, end: int, final: bool) -> str:
        """The document of rows ``start`` to ``end`` without its page-margin boxes (the frame's
        to draw). A chunk after the first leads in with the row before it on a page of its own,
        so that its first page is laid out as the single document's page starting with that row
        (the border between two rows collapsed, not the head's); that page is dropped."""
        head = self.head.replace("</head>", _SUPPRESS_MARGINS + ("" if start == 0 else _LEAD_IN) + "</head>", 1)
        lead = [] if start == 0 else [self.rows[start - 1]]
        tail = self.tail if final else "</tbody></table></body></html>"
        return head + "".join(lead + self.rows[start:end]) + tail

    def frame(self, pages: int) -> str:
        """A document of ``pages`` empty pages with the page-margin boxes of the whole: its
        content before the table is there (for running headers, ``string-set``) but not drawn."""
        body = self.head.find("<body")
        table = self.head.find("<table", body)
        opened = self.head.index(">", body) + 1
        before = self.head[opened:table]
        blank = '<div style="break-before: page"></div>' * (pages - 1)
        return self.head[:opened] + f'<div style="visibility: hidden">{before}</div>{blank}</body></html>'


@dataclass
class _Geometry:
    """What the page-break prediction needs, measured on a document of the table's first rows:
    where the body rows start on the first page and on a following one (under the repeated head),
    where a page ends, each column's width (mm), font size (pt) and weight, the line height (per
    pt of font size), what a row adds to its tallest cell, and the first row's height."""

    first_top: float
    next_top: float
    bottom: float
    columns: list[tuple[float, float, bool]]
    line: float
    extra: float
    first_row: float


_PX_MM = 25.4 / 96


def _measure(table: _Table, base_url: str, text_width) -> _Geometry | None:
    from weasyprint import HTML
    from weasyprint.formatting_structure import boxes

    sample = table.chunk(0, min(2, len(table.rows)), final=False)
    document = HTML(string=sample, base_url=base_url).render()
    page = document.pages[0]._page_box
    groups = [b for b in _walk(page) if isinstance(b, boxes.TableRowGroupBox)]
    heads = [g for g in groups if g.element_tag == "thead"]
    bodies = [g for g in groups if g.element_tag == "tbody"]
    if len(heads) != 1 or len(bodies) != 1 or len(bodies[0].children) < 2 or len(document.pages) != 1:
        return None
    first, second = bodies[0].children[:2]
    cells = second.children
    if not cells or any(c.colspan != 1 for c in cells):
        return None
    top = page.content_box_y()
    columns = [(c.width * _PX_MM, c.style["font_size"] * 0.75, c.style["font_weight"] >= 600) for c in cells]
    texts = [" ".join(htmllib.unescape(_TAG.sub("", inner)).split()) for _kind, inner in _CELL.findall(table.rows[1])]
    if len(texts) != len(cells):
        return None
    line = max(  # a line's height per pt of font size, from the cells with text (an empty one is 0 high)
        (
            cell.height / (size * _lines(text, width, size, bold, text_width))
            for cell, text, (width, size, bold) in zip(cells, texts, columns)
            if text
        ),
        default=0.0,
    )
    if not line:
        return None
    tallest = max(c.height for c in cells)
    return _Geometry(
        first_top=first.position_y,
        next_top=top + heads[0].height,
        bottom=top + page.height,
        columns=columns,
        line=line,
        extra=second.height - tallest,
        first_row=first.height,
    )


_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_]-)(?=[^\W\d_])")  # after a hyphen between letters, not a minus sign


def _lines(text: str, width: float, size: float, bold: bool, text_width) -> int:
    """How many lines ``text`` takes in a column ``width`` mm wide: words set one after another
    while they fit, broken at spaces and after a hyphen between letters (not before a number:
    "-4"), a word wider than the column on a line of its own."""
    lines, used, space = 0, 0.0, text_width(" ", size, bold)
    for word in text.split():
        for k, piece in enumerate(_HYPHEN_BREAK.split(word)):
            w = text_width(piece, size, bold)
            gap = space if k == 0 else 0.0
            if lines and used + gap + w <= width:
                used += gap + w
            else:
                lines, used = lines + 1, w
    return max(lines, 1)


def _row_height(row: str, geometry: _Geometry, text_width) -> float:
    tallest = 0.0
    for (width, size, bold), (_kind, inner) in zip(geometry.columns, _CELL.findall(row)):
        text = " ".join(htmllib.unescape(_TAG.sub("", inner)).split())
        strong = bold or "<strong" in inner or "<b>" in inner
        tallest = max(tallest, _lines(text, width, size, strong, text_width) * geometry.line * size)
    return tallest + geometry.extra


def _predict(heights: list[float], start: int, geometry: _Geometry) -> list[int]:
    """The rows that start a page when a page starts with row ``start``, as WeasyPrint breaks a
    table (a row that would end below the page goes to the next)."""
    starts, y, on_page = [start], geometry.first_top if start == 0 else geometry.next_top, 0
    for i in range(start, len(heights)):
        h = geometry.first_row if i == 0 else heights[i]
        if on_page and y + h > geometry.bottom * (1 + 1e-9):
            starts.append(i)
            y, on_page = geometry.next_top, 0
        y += h
        on_page += 1
    return starts


def _plan(starts: list[int], rows: int, chunk_rows: int, workers: int) -> list[tuple[int, int]]:
    """Chunks ``(first row, end)`` from ``starts[0]`` to ``rows``, each ending where a page is
    predicted to start: as many as the workers, or a multiple of them, so that each chunk holds
    about ``chunk_rows`` rows or fewer and all workers finish at about the same time."""
    begin = starts[0]
    every = workers * chunk_rows
    count = workers * -(-(rows - begin) // every)
    size = (rows - begin) / count
    chunks, k = [], 1
    for s in starts[1:]:
        if s >= starts[0] + k * size and rows - s >= size / 2:
            chunks.append((begin, s))
            begin = s
            k += 1
    chunks.append((begin, rows))
    return chunks


def long_table_pdf(
    html: str,
    text_width: Callable[[str, float, bool], float],
    chunk_rows: int | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """The PDF of a document whose body is one long table (the standings): the same pages as
    :func:`html_to_pdf`'s, laid out in chunks of whole pages on ``workers`` child processes
    (default :func:`processes`) and joined with pypdf. ``text_width(text, size_pt, bold)`` gives
    a text's width in mm in the print font, to predict where pages break; ``progress(rows, total)``
    is called as chunks are done.

    A chunk ends where a page is predicted to start and is laid out one row further, so its own
    layout shows whether a page really starts there; where it does not, the rest is planned again
    from the page start it shows (after :data:`MAX_REPLANS` times, as one chunk). The page-margin
    boxes (the running title, "page X / Y") are drawn from a document of as many empty pages as
    the chunks gave. A table of at most ``chunk_rows`` rows, or HTML that is not one table, is one
    document here. Raises ``BrokenProcessPool`` when a child dies.
    """
    chunk_rows = chunk_rows or CHUNK_ROWS
    table = _Table.parse(html)
    if table is None or len(table.rows) <= chunk_rows:
        return html_to_pdf(html)
    base_url = _base_url()
    global last_print
    last_print = stats = PrintStats(processes=workers or processes())
    lap = time.perf_counter()
    geometry = _measure(table, base_url, text_width)
    if geometry is None:
        stats.notes.append("no geometry: one document")
        return html_to_pdf(html)
    heights = [_row_height(row, geometry, text_width) for row in table.rows]
    stats.lap("measure", lap)
    try:
        return _chunked(table, geometry, heights, chunk_rows, base_url, stats, progress)
    except _Mismatch as error:  # never seen; the single document is right by definition
        stats.notes.append(f"{error}: one document")
        return html_to_pdf(html)


class _Mismatch(Exception):
    """The chunks' layouts do not fit together as expected."""


def _chunked(table, geometry, heights, chunk_rows, base_url, stats, progress) -> bytes:
    lap = time.perf_counter()
    total = len(table.rows)
    with _Pool(stats.processes) as pool:
        futures: dict[int, tuple[int, Future]] = {}  # first row -> (end, its layout)

        def submit(start: int, end: int) -> None:
            final = end >= total
            html_chunk = table.chunk(start, end if final else end + 1, final)
            futures[start] = end, pool.submit(_lay_out, [html_chunk], base_url, True)
            stats.chunks += 1

        def plan_from(start: int) -> None:
            for old in list(futures):
                if old >= start:
                    pool.abandon(futures.pop(old)[1])
            if stats.replans > MAX_REPLANS:
                submit(start, total)
                return
            for a, b in _plan(_predict(heights, start, geometry), total, chunk_rows, stats.processes):
                submit(a, b)

        plan_from(0)
        from weasyprint import HTML

        predicted = len(_predict(heights, 0, geometry))
        frame = HTML(string=table.frame(predicted), base_url=base_url).write_pdf()  # meanwhile
        pdfs, keep, position = [], [], 0
        while position < total:
            if position not in futures:
                stats.replans += 1
                stats.notes.append(f"page break mispredicted before row {position}")
                plan_from(position)
            end, future = futures.pop(position)
            pdf, counts, cpu, peak = future.result()
            stats.child_peak_mib = max(stats.child_peak_mib, peak)
            stats.child_cpu_s += cpu
            lead = 0 if position == 0 else 1
            if lead and counts[:1] != [1]:
                raise _Mismatch(f"the lead-in page of row {position} holds {counts[:1]} rows")
            starts, row = [], position
            for n in counts[lead:]:
                starts.append(row)
                row += n
            if end >= total:
                if row != total:
                    raise _Mismatch(f"the last chunk from row {position} laid out {row - position} rows")
                cut = len(starts)
                position = total
            else:  # the last page (with the row after the chunk) is incomplete
                cut = starts.index(end) if end in starts else len(starts) - 1
                if cut == 0:  # not one whole page: lay out to the end
                    stats.replans = MAX_REPLANS + 1
                    futures.pop(position, None)
                    submit(position, total)
                    continue
                position = starts[cut]
            pdfs.append(pdf)
            keep.append(range(lead, lead + cut))
            if progress is not None:
                progress(position, total)
    stats.pages = sum(len(r) for r in keep)
    lap = stats.lap("chunks", lap)
    if stats.pages != predicted:
        frame = HTML(string=table.frame(stats.pages), base_url=base_url).write_pdf()
        lap = stats.lap("frame", lap)
    content = _join(pdfs, keep, frame)
    stats.lap("join", lap)
    stats.parent_peak_mib = _peak_rss_mib()
    return content


def pdf_response(content: bytes, tournament, suffix: str):
    """A download named after the tournament, e.g. ``cup-schwaz-2026-12-05-round-1-seating.pdf``."""
    from django.http import HttpResponse
    from django.utils.text import slugify

    response = HttpResponse(content, content_type="application/pdf")
    name = f"{slugify(tournament.name) or 'tournament'}-{tournament.date:%Y-%m-%d}-{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
