"""Parlour's app layer: the PySide6 desktop client."""

from __future__ import annotations


def version() -> str:
    """The installed package version, or the development one."""
    try:
        from importlib.metadata import version as installed
        return installed("parlour")
    except Exception:  # running from a checkout that was never installed
        return "0.1.0 (development)"
