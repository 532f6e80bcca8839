"""Alembic's environment for the store: always online, on the connection
store.py hands over (config.attributes["connection"]), in its transaction."""

from alembic import context

from movebench_report.storeschema import metadata

connection = context.config.attributes["connection"]
# transactional_ddl: SQLite's DDL is transactional too; every migration and
# its version row commit together or not at all.
context.configure(connection=connection, target_metadata=metadata, transactional_ddl=True)
with context.begin_transaction():
    context.run_migrations()
