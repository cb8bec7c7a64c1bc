"""A hand replayed on what one seat knows: the checks a peer runs on every entry, which
both the replica (``peer/``) and each deal's peer half (``deals/``) use.

``shadow.py`` (one hand replayed on a shadow deal), ``live.py`` (the deal and each move
checked as they come) and ``privacy.py`` (what is sent to this seat alone must be this
seat's). They sit below ``peer/`` and ``deals/`` so that neither imports the other's
checks: the replica holds a deal, and a deal's peer half replays a hand, each from here.
"""
