"""The read-only public API (Django REST framework): tournaments, standings, rounds and tables, a
player's results and cup tables as JSON, with an OpenAPI schema, so clubs can show live standings
on their own pages; and the embeddable standings widget (a page for an ``<iframe>``)."""
