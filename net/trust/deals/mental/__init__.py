"""The mental-poker deal: a jointly shuffled, encrypted deck.

Each human player's client alone learns its own cards; the host's client learns its own
seat's and its computer players' hands and nothing else. Barnett & Smart's
construction ("Mental Poker Revisited", 2003) over secp256k1 (libsecp256k1, coincurve):
ElGamal under a joint key, a re-encrypt-and-permute shuffle by every party in turn,
each proven as it is made (Terelius–Wikström) and checked by every other party before it
publishes a share, decryption shares proven with Chaum–Pedersen proofs, and every
shuffle redone at the end of the hand from the seed each party then reveals.
docs/protocol.md, "The mental-poker deal", is the specification.

Modules, bottom up: ``group`` (points and scalars over coincurve), ``proofs`` (Schnorr,
Chaum–Pedersen), ``deck`` (card points, ciphertexts, one shuffle), ``shuffle_proof``
(the proof of a shuffle, and a batched check of several), ``keys`` (the deal's
context and a party's secrets from its identity key), ``setup`` (parties, seats and
deck positions), ``messages`` (the wire dicts), ``outputs`` (what a party's machine
hands back), ``chain`` (the key shares, decks and shuffle proofs every reader checks,
party or not), ``machine`` (one party's sans-I/O state machine, ``MentalDeal``: what it
holds of the deal, its steps, and the end-of-hand verification),
``witness`` (the same for a client that is no party of an attempt, checking it at the end),
``flows`` (the engine's hidden-information moments as the deal's steps), ``sequencer``
(the host's log of the deal), ``client`` (a party reading that log, ``DealClient``),
``hand`` (a client's hand on what it knows, checked move by move, ``PartyHand``); then
the deal as the table runs it: ``log`` (its entries in the table's log), ``host`` (the
host's part, ``MentalHost``: sequencer and one party) and ``peer`` (a guest's part,
``MentalPeer``), behind the interfaces of ``net.trust.deals.host`` and ``.peer``.
"""
