"""vibegit: keep an AI coding agent's workflow state in git."""

from __future__ import annotations

__version__ = "0.2.1"
