"""The PostgreSQL database backend the project uses: Django's own, with a health check of a kept
connection that costs no round trip while its socket is quiet (:mod:`config.postgresql.base`)."""
