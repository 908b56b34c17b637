"""Every download of a tournament or a round as a registered exporter, after pretix's
``BaseExporter``: the registry and storage (:mod:`.base`), the project's own exporters
(:mod:`.builtin`, :mod:`.prizes`, registered when the app is ready), the standings workbook and
PDF and the long list of hands (:mod:`.standings`), the printed sheets (:mod:`.prints`), the
notation card (:mod:`.notation_card`), the one download view (:mod:`.views`) and the background
task that renders the heavy ones (:mod:`.tasks`, :class:`.models.ExportJob`)."""
