"""movebench-report: merge, compare, tabulate, plot and import movebench results."""

__version__ = "0.1.0"
