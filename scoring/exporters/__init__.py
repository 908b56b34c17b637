"""Registered exporters (:mod:`.base`) and the project's own (:mod:`.builtin`)."""

from . import builtin, prizes  # noqa: F401  (registers the project's exporters)
from .base import Audience, BaseExporter, exporters, get_exporter, params_key, register, storage_name, store, stored

__all__ = ["Audience", "BaseExporter", "exporters", "get_exporter", "params_key", "register", "storage_name", "store", "stored"]
