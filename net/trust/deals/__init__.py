"""The two deals a hand can be dealt by, each a part behind one interface.

``seeded``: commit–reveal (the host's client knows every hand). ``mental``: the
mental-poker deal (each human's client alone learns its own cards). The host's
authority and every peer's replica hold one deal part per hand and call it; nothing
outside this folder asks which deal a hand has.
"""
