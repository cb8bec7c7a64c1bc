"""Parlour's net layer."""
