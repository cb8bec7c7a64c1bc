"""The trust protocol, sans I/O: the host authority, the peer replica, the signed log and its store, the fair deal, alerts."""
