"""The store's tables as SQLAlchemy Core objects (docs/history.md): what the
queries use. The database gets them only through the migrations
(migrations/versions), never by create_all; a test checks that the two
agree on both backends."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

metadata = sa.MetaData()

# The whole document: JSONB on PostgreSQL (queried with its operators), JSON
# text on SQLite (its json_extract reads it).
DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
# Row ids: 64 bits on PostgreSQL (a fleet's years of figures); SQLite's
# INTEGER PRIMARY KEY is already 64 bits and only it autoincrements.
ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

documents = sa.Table(
    "documents",
    metadata,
    sa.Column("id", ROW_ID, primary_key=True),
    sa.Column("sha256", sa.String(64), nullable=False, unique=True),
    sa.Column("stored_at", sa.DateTime(), nullable=False),
    sa.Column("path", sa.Text(), nullable=False),
    sa.Column("hostname", sa.Text(), nullable=False),
    sa.Column("benchmark", sa.Text(), nullable=False),
    sa.Column("name", sa.Text(), nullable=False),
    sa.Column("time", sa.DateTime(), nullable=True),
    sa.Column("git_commit", sa.Text(), nullable=False),
    sa.Column("version", sa.Text(), nullable=False),
    sa.Column("schema_version", sa.Integer(), nullable=False),
    sa.Column("complete", sa.Boolean(), nullable=False),
    sa.Column("validated", sa.Boolean(), nullable=False),
    sa.Column("document", DOCUMENT, nullable=False),
    sa.Index("ix_documents_hostname_time", "hostname", "time"),
)

figures = sa.Table(
    "figures",
    metadata,
    sa.Column("id", ROW_ID, primary_key=True),
    sa.Column("document_id", ROW_ID, sa.ForeignKey("documents.id", ondelete="CASCADE"), nullable=False),
    sa.Column("time", sa.DateTime(), nullable=True),
    sa.Column("host", sa.Text(), nullable=False),
    sa.Column("rank", sa.Text(), nullable=True),
    sa.Column("git_commit", sa.Text(), nullable=False),
    sa.Column("version", sa.Text(), nullable=False),
    sa.Column("kind", sa.Text(), nullable=False),
    sa.Column("benchmark", sa.Text(), nullable=False),
    sa.Column("operation", sa.Text(), nullable=False),
    sa.Column("bytes", sa.BigInteger(), nullable=True),
    sa.Column("variant", sa.Text(), nullable=False),
    sa.Column("params", sa.JSON(none_as_null=True), nullable=True),
    sa.Column("figure", sa.Text(), nullable=False),
    sa.Column("value", sa.Double(), nullable=False),
    sa.Column("unit", sa.Text(), nullable=False),
    sa.Column("stat", sa.Text(), nullable=True),
    sa.Column("better", sa.Text(), nullable=False),
    sa.Column("noise", sa.Double(), nullable=True),
    sa.Column("peak_fraction", sa.Double(), nullable=True),
    sa.Column("verdict", sa.Text(), nullable=True),
    sa.Index("ix_figures_document_id", "document_id"),
    sa.Index("ix_figures_host_figure_time", "host", "figure", "time"),
)
