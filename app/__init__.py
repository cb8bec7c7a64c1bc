"""Parlour's app layer."""
