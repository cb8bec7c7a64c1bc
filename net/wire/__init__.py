"""The wire: framing, the TLS transport, identities, message schemas, links with heartbeats."""
