"""Sessions: the table core and its parts, the guest, the facade the app uses."""
