"""The store's schema migrations (Alembic), kept with the package: store.py
runs them to the head revision whenever it opens a store."""
