"""The first schema: documents (one per result, the whole document kept) and
figures (one row per figure).

Revision ID: 0001
Revises:
Create Date: 2026-11-28"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    op.create_table(
        "documents",
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
        sa.Column("document", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
    )
    op.create_index("ix_documents_hostname_time", "documents", ["hostname", "time"])
    op.create_table(
        "figures",
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
        sa.Column("params", sa.JSON(), nullable=True),
        sa.Column("figure", sa.Text(), nullable=False),
        sa.Column("value", sa.Double(), nullable=False),
        sa.Column("unit", sa.Text(), nullable=False),
        sa.Column("stat", sa.Text(), nullable=True),
        sa.Column("better", sa.Text(), nullable=False),
        sa.Column("noise", sa.Double(), nullable=True),
        sa.Column("peak_fraction", sa.Double(), nullable=True),
        sa.Column("verdict", sa.Text(), nullable=True),
    )
    op.create_index("ix_figures_document_id", "figures", ["document_id"])
    op.create_index("ix_figures_host_figure_time", "figures", ["host", "figure", "time"])


def downgrade():
    op.drop_table("figures")
    op.drop_table("documents")
